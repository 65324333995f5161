package org.phalanx.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

/**
 * A database engine, as far as Phalanx treats engines differently: the SQL it speaks (live DDL
 * translation, dumps, the JDBC recovery log's column types) and how it locks (scheduling).
 * Recognised from a JDBC URL (a backend's configuration), or from what a connection's
 * {@code DatabaseMetaData} reports as its product name.
 */
public enum Engine {
    SQLITE(true, true, Connection.TRANSACTION_SERIALIZABLE),
    POSTGRESQL(false, true, Connection.TRANSACTION_READ_COMMITTED),
    /** MariaDB or MySQL. */
    MARIADB(false, true, Connection.TRANSACTION_REPEATABLE_READ),
    /**
     * Another Phalanx controller (a nested one), recognised by its {@code jdbc:phalanx:} URL only:
     * its metadata reports the product of its own backends. Counted as locking the whole database:
     * its own scheduler may serialise writing transactions (it does over SQLite), and a transaction
     * waiting there for another's commit must not be ordered in front of that commit here. It holds
     * no read snapshot either: the reads of one of its transactions may be served by different backends.
     */
    PHALANX(true, false, Connection.TRANSACTION_READ_COMMITTED),
    /** An engine Phalanx does not know: assumed to allow one writing transaction at a time, the safe guess. */
    OTHER(true, true, Connection.TRANSACTION_READ_COMMITTED);

    private final boolean locksWholeDatabase;
    private final boolean holdsReadSnapshots;
    private final int defaultIsolation;

    Engine(boolean locksWholeDatabase, boolean holdsReadSnapshots, int defaultIsolation) {
        this.locksWholeDatabase = locksWholeDatabase;
        this.holdsReadSnapshots = holdsReadSnapshots;
        this.defaultIsolation = defaultIsolation;
    }

    /**
     * The isolation level a transaction gets on this engine unless it asks for another (a JDBC
     * {@code Connection.TRANSACTION_*} constant); read committed where we do not know (another
     * controller, whose backends decide; an unknown engine).
     */
    public int defaultIsolation() {
        return defaultIsolation;
    }

    /** Whether the engine (or our ignorance of it) requires one writing transaction at a time. */
    public boolean locksWholeDatabase() {
        return locksWholeDatabase;
    }

    /**
     * Whether the engine's generated keys follow its transactions: a rolled-back or interrupted
     * insert gives its key back (SQLite: the next key is the largest one committed, plus one), so
     * replaying the same committed inserts on a copy gives the same keys. Not so where a counter
     * moves on outside transactions (a PostgreSQL sequence, which also jumps ahead after a crash;
     * MariaDB's AUTO_INCREMENT), nor where we do not know (another controller, an unknown engine).
     */
    public boolean keysFollowTransactions() {
        return this == SQLITE;
    }

    /** Whether a transaction's reads see one snapshot of the database (dumps of a live backend need it). */
    public boolean holdsReadSnapshots() {
        return holdsReadSnapshots;
    }

    /** The engine a JDBC URL reaches; the only way to recognise {@link #PHALANX}. */
    public static Engine ofUrl(String jdbcUrl) {
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
        if (url.contains(":postgresql:")) {
            return POSTGRESQL;
        }
        if (url.contains(":mariadb:") || url.contains(":mysql:")) {
            return MARIADB;
        }
        if (url.contains(":jdbc:phalanx:")) {
            return PHALANX;
        }
        return OTHER;
    }

    /**
     * The engine a {@code DatabaseMetaData} product name names (null allowed). Never
     * {@link #PHALANX}: a controller reports the product of its backends, whose SQL it speaks.
     */
    public static Engine ofProduct(String productName) {
        String p = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        if (p.contains("sqlite")) {
            return SQLITE;
        }
        if (p.contains("postgres")) {
            return POSTGRESQL;
        }
        if (p.contains("mariadb") || p.contains("mysql")) {
            return MARIADB;
        }
        return OTHER;
    }

    /** The engine whose SQL a connection speaks, from its metadata's product name. */
    public static Engine of(Connection connection) throws SQLException {
        return ofProduct(connection.getMetaData().getDatabaseProductName());
    }
}
