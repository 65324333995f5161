package org.phalanx.controller.config;

import java.util.List;

/**
 * A configuration the controller refuses. The message holds every problem found, one per line,
 * each as {@code file:line:column: what is wrong} so editors and terminals can jump to it.
 */
public final class ConfigException extends Exception {
    private final List<String> problems;

    public ConfigException(List<String> problems) {
        super(String.join(System.lineSeparator(), problems));
        this.problems = List.copyOf(problems);
    }

    public ConfigException(String problem) {
        this(List.of(problem));
    }

    public List<String> problems() {
        return problems;
    }
}
