package org.phalanx.controller.jmx;

/**
 * A dump as management shows it.
 *
 * @param problem why its description cannot be read (empty when it can; the other fields are then empty)
 */
public record DumpDescription(String name, String format, String sourceEngine, String checkpoint,
                              long checkpointPosition, long rows, long bytes, String created, String problem) {
}
