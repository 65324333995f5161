package org.phalanx.controller.config;

/** A spot in a configuration file, as shown to the user: the file as they named it, line and column. */
public record ConfigLocation(String file, int line, int column) {

    /** The problem in the agreed {@code file:line:column: reason} form. */
    public String problem(String reason) {
        return file + ":" + line + ":" + column + ": " + reason;
    }

    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
