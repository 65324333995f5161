package org.phalanx.requestmanager.backend;

import java.util.Locale;

/** The database engine behind a backend, as far as scheduling and defaults care. */
public enum Engine {
    SQLITE(true), POSTGRESQL(false), MARIADB(false), PHALANX(true), OTHER(true);

    /** Whether the engine (or our ignorance of it) requires one writing transaction at a time. */
    public final boolean locksWholeDatabase;

    Engine(boolean locksWholeDatabase) {
        this.locksWholeDatabase = locksWholeDatabase;
    }

    public static Engine of(String jdbcUrl) {
        String url = jdbcUrl.toLowerCase(Locale.ROOT);
        if (url.startsWith("jdbc:sqlite:")) {
            return SQLITE;
        }
        if (url.startsWith("jdbc:postgresql:")) {
            return POSTGRESQL;
        }
        if (url.startsWith("jdbc:mariadb:") || url.startsWith("jdbc:mysql:")) {
            return MARIADB;
        }
        if (url.startsWith("jdbc:phalanx:")) {
            return PHALANX;
        }
        // wrappers such as test fault injectors name the real engine after their own prefix
        if (url.contains(":sqlite:")) {
            return SQLITE;
        }
        return OTHER;
    }
}
