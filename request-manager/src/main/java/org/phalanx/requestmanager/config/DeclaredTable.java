package org.phalanx.requestmanager.config;

/**
 * A table the configuration says a backend holds (static schema). Checked against the
 * backend's own metadata when it is enabled.
 *
 * @param location where it is declared (file:line:col), for error messages
 */
public record DeclaredTable(String name, String location) {
}
