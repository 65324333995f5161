package org.phalanx.controller.net;

import java.util.HashMap;
import java.util.Map;

/** How many connections each user of each virtual database has open, against a cap (0: none). */
final class UserConnections {
    private final int max;
    private final Map<String, Integer> open = new HashMap<>();

    UserConnections(int max) {
        this.max = max;
    }

    /** Counts one more connection of {@code user}; false (and counts nothing) if that would pass the cap. */
    synchronized boolean admit(String user) {
        int now = open.getOrDefault(user, 0);
        if (max > 0 && now >= max) {
            return false;
        }
        open.put(user, now + 1);
        return true;
    }

    synchronized void left(String user) {
        open.computeIfPresent(user, (k, n) -> n <= 1 ? null : n - 1);
    }

    int max() {
        return max;
    }
}
