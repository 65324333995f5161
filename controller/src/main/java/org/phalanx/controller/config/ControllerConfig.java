package org.phalanx.controller.config;

import java.nio.file.Path;
import java.util.List;

/**
 * A controller as configured: where it listens and the virtual databases it hosts.
 *
 * @param file the controller.xml it was read from (absolute)
 * @param jmx  the JMX connector, or null when the file has no {@code <jmx>} (no connector is opened)
 */
public record ControllerConfig(Path file, ListenConfig listen, JmxConfig jmx, List<VirtualDatabaseConfig> virtualDatabases) {
    public ControllerConfig(Path file, ListenConfig listen, List<VirtualDatabaseConfig> virtualDatabases) {
        this(file, listen, null, virtualDatabases);
    }
}
