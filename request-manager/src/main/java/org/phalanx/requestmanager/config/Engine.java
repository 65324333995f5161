package org.phalanx.requestmanager.config;

import java.util.Locale;

/** The database engine behind a backend, as far as scheduling and defaults care. */
public enum Engine {
    SQLITE(true, true), POSTGRESQL(false, true), MARIADB(false, true),
    /**
     * Another Phalanx controller. Counted as locking the whole database: its own scheduler may
     * serialise writing transactions (it does over SQLite), and a transaction waiting there for
     * another's commit must not be ordered in front of that commit here. It holds no read
     * snapshot either: the reads of one of its transactions may be served by different backends.
     */
    PHALANX(true, false),
    OTHER(true, true);

    /** Whether the engine (or our ignorance of it) requires one writing transaction at a time. */
    public final boolean locksWholeDatabase;
    /** Whether a transaction's reads see one snapshot of the database (dumps of a live backend need it). */
    public final boolean holdsReadSnapshots;

    Engine(boolean locksWholeDatabase, boolean holdsReadSnapshots) {
        this.locksWholeDatabase = locksWholeDatabase;
        this.holdsReadSnapshots = holdsReadSnapshots;
    }

    /** The engine a {@code DatabaseMetaData} product name names (never PHALANX: a controller names its backends'). */
    public static Engine ofProduct(String productName) {
        return switch (org.phalanx.recoverylog.dump.Engine.ofProduct(productName)) {
            case SQLITE -> SQLITE;
            case POSTGRESQL -> POSTGRESQL;
            case MARIADB -> MARIADB;
            case OTHER -> OTHER;
        };
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
