package org.phalanx.controller.config;

import java.util.ArrayList;
import java.util.List;

/** Collects every problem of a configuration so the user can fix them all in one round. */
final class ConfigProblems {
    private final List<String> problems = new ArrayList<>();

    void add(ConfigLocation where, String reason) {
        problems.add(where.problem(reason));
    }

    void addAll(ConfigException e) {
        problems.addAll(e.problems());
    }

    boolean isEmpty() {
        return problems.isEmpty();
    }

    void throwIfAny() throws ConfigException {
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }
}
