package org.phalanx.controller.config;

import java.nio.file.Path;
import java.util.List;

/**
 * A controller as configured: where it listens and the virtual databases it hosts.
 *
 * @param file the controller.xml it was read from (absolute)
 */
public record ControllerConfig(Path file, ListenConfig listen, List<VirtualDatabaseConfig> virtualDatabases) {
}
