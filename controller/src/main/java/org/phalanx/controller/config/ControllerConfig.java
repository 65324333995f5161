package org.phalanx.controller.config;

import java.nio.file.Path;
import java.util.List;

/**
 * A controller as configured: where it listens and the virtual databases it hosts.
 *
 * @param file the controller.xml it was read from (absolute)
 * @param jmx  the JMX connector, or null when the file has no {@code <jmx>} (no connector is opened)
 * @param http the monitoring HTTP port, or null when the file has no {@code <http>} (none is opened)
 */
public record ControllerConfig(Path file, ListenConfig listen, JmxConfig jmx, HttpConfig http,
                               List<VirtualDatabaseConfig> virtualDatabases) {
    public ControllerConfig(Path file, ListenConfig listen, List<VirtualDatabaseConfig> virtualDatabases) {
        this(file, listen, null, null, virtualDatabases);
    }

    public ControllerConfig(Path file, ListenConfig listen, JmxConfig jmx, List<VirtualDatabaseConfig> virtualDatabases) {
        this(file, listen, jmx, null, virtualDatabases);
    }
}
