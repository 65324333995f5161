package org.phalanx.requestmanager.recovery;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.phalanx.engine.Engine;
import org.phalanx.recoverylog.ControllerTables;
import org.phalanx.requestmanager.backend.Backend;

/**
 * Where a backend's record of applied positions lives, outside the application's schema where
 * the engine allows, so schema tools (Flyway's "is the schema empty?", SQL shells) never see it
 * and cannot drop it: PostgreSQL, table {@code applied} of schema {@code phalanx} in the
 * backend's database; MariaDB, table {@code applied} of database {@code phalanx}, one row set per
 * backend database (backends may share a server); elsewhere (SQLite, a file of its own), table
 * {@code phalanx_applied} beside the application's, hidden from metadata answers.
 *
 * <p>A nested controller (engine {@link Engine#PHALANX}) keeps the record of the controller above
 * as a table of its virtual database, {@code phalanx_upper_applied_<its vdb>}
 * ({@link ControllerTables#upperApplied}): written through the Phalanx driver in the unit's own
 * transaction, the sub-controller logs and replicates it to its backends with the unit, so it is
 * exactly as durable as the data it describes. It is not the sub's own {@code phalanx_applied}
 * (kept on the sub's backends for the sub's log), and, named after the virtual database it
 * describes, not the record a sub-controller keeps of its own controller backends further down.
 * Its SQL is the same on every engine the sub may have underneath.
 *
 * @param engine the engine whose SQL the statements are written in (PHALANX: any of the sub's)
 * @param table  the qualified table name
 * @param mine   the condition selecting this backend's rows ({@code TRUE} where the table is its own)
 * @param insert the INSERT of one position (one {@code ?})
 * @param create the statements creating it if missing
 * @param fromLegacy the INSERT copying an earlier version's {@code phalanx_applied} into it, or null
 */
public record AppliedTable(Engine engine, String table, String mine, String insert, String[] create, String fromLegacy) {
    private static final AppliedTable POSTGRESQL = new AppliedTable(Engine.POSTGRESQL, ControllerTables.SCHEMA + ".applied", "1 = 1",
            "INSERT INTO " + ControllerTables.SCHEMA + ".applied (position) VALUES (?)", new String[] {
                "CREATE SCHEMA IF NOT EXISTS " + ControllerTables.SCHEMA,
                "CREATE TABLE IF NOT EXISTS " + ControllerTables.SCHEMA + ".applied (position BIGINT NOT NULL PRIMARY KEY)"},
            "INSERT INTO " + ControllerTables.SCHEMA + ".applied (position) SELECT position FROM " + ControllerTables.APPLIED);
    private static final AppliedTable MARIADB = new AppliedTable(Engine.MARIADB, ControllerTables.SCHEMA + ".applied", "db = DATABASE()",
            "INSERT INTO " + ControllerTables.SCHEMA + ".applied (db, position) VALUES (DATABASE(), ?)", new String[] {
                "CREATE DATABASE IF NOT EXISTS " + ControllerTables.SCHEMA,
                "CREATE TABLE IF NOT EXISTS " + ControllerTables.SCHEMA + ".applied (db VARCHAR(64) NOT NULL,"
                        + " position BIGINT NOT NULL, PRIMARY KEY (db, position))"},
            "INSERT INTO " + ControllerTables.SCHEMA + ".applied (db, position) SELECT DATABASE(), position FROM "
                    + ControllerTables.APPLIED);
    private static final AppliedTable BESIDE = beside(Engine.SQLITE, ControllerTables.APPLIED);
    /** The records on nested controllers, by backend URL. */
    private static final Map<String, AppliedTable> NESTED = new ConcurrentHashMap<>();

    /** The record on a backend of a real engine. */
    public static AppliedTable of(Engine engine) {
        return switch (engine) {
            case POSTGRESQL -> POSTGRESQL;
            case MARIADB -> MARIADB;
            default -> BESIDE;
        };
    }

    /** The record on a backend: on a nested controller, the table named after its virtual database. */
    public static AppliedTable of(Backend b) {
        if (b.engine() != Engine.PHALANX) {
            return of(b.engine());
        }
        // asked for every unit: the name is worked out once per URL
        return NESTED.computeIfAbsent(b.config().url(), url -> nested(ControllerTables.upperApplied(url)));
    }

    /** The record kept in a nested controller's virtual database, in a table of that name. */
    static AppliedTable nested(String table) {
        return beside(Engine.PHALANX, table);
    }

    /** A table of its own beside the application's, in SQL every engine speaks. */
    private static AppliedTable beside(Engine engine, String table) {
        return new AppliedTable(engine, table, "1 = 1", "INSERT INTO " + table + " (position) VALUES (?)",
                new String[] {"CREATE TABLE IF NOT EXISTS " + table + " (position BIGINT NOT NULL PRIMARY KEY)"}, null);
    }

    /**
     * Creates the table if missing; moves a record an earlier version kept beside the
     * application's tables ({@code phalanx_applied}) into it, so an upgrade loses nothing.
     */
    void ensure(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : create) {
                s.executeUpdate(sql);
            }
        }
        if (fromLegacy != null && hasLegacyTable(c)) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.executeUpdate(fromLegacy);
                s.executeUpdate("DROP TABLE " + ControllerTables.APPLIED);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(autoCommit);
            }
        }
    }

    private static boolean hasLegacyTable(Connection c) throws SQLException {
        String schema = c.getSchema();
        String catalog = c.getCatalog();
        try (var rs = c.getMetaData().getTables(catalog, schema, ControllerTables.APPLIED, null)) {
            return rs.next();
        }
    }

    /**
     * Empties this backend's rows. On a nested controller by dropping the table and creating it
     * again, in auto-commit: a DELETE's row count would differ between the sub-controller's
     * backends when they have diverged (the reason a restore empties the record), and the sub would
     * take the backends counting otherwise out of service, so the restore would not reach them; DDL
     * carries no count. Elsewhere a DELETE, which may share the caller's transaction.
     */
    void empty(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            if (emptiesInTransaction()) {
                s.executeUpdate("DELETE FROM " + table + where(""));
                return;
            }
            s.executeUpdate("DROP TABLE IF EXISTS " + table);
            for (String sql : create) {
                s.executeUpdate(sql);
            }
        }
    }

    /** Whether {@link #empty} may run inside a transaction (not on a nested controller, where it is DDL). */
    boolean emptiesInTransaction() {
        return engine != Engine.PHALANX;
    }

    /** {@code WHERE} this backend's rows, and {@code more} if not empty. */
    String where(String more) {
        return " WHERE " + mine + (more.isEmpty() ? "" : " AND " + more);
    }
}
