package org.phalanx.requestmanager.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.phalanx.engine.Engine;
import org.phalanx.testkit.db.TestDatabases;
import org.junit.jupiter.api.io.TempDir;

/** The record of applied positions on a real SQLite file. */
class AppliedPositionsTest {
    @TempDir
    Path dir;

    /**
     * A floor is only ever raised. A raise computed earlier (a checkpoint's, run late on the
     * schedule's thread) that arrives after an enable by replay raised the floor past it used to
     * insert a lower floor: the replay's floor then looked like a unit above it, which crash
     * recovery found the log did not show as sent to that backend, and failed the backend after
     * the next crash (KillDuringRecoveryIT).
     */
    @Test
    void aFloorIsNeverLowered() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("b.db"))) {
            AppliedPositions.reset(c, AppliedTable.of(Engine.SQLITE), 100);
            AppliedPositions.record(c, AppliedTable.of(Engine.SQLITE), 103);
            AppliedPositions.raiseFloor(c, AppliedTable.of(Engine.SQLITE), 3716); // an enable's replay brought it to 3716
            AppliedPositions.record(c, AppliedTable.of(Engine.SQLITE), 3717);
            AppliedPositions.raiseFloor(c, AppliedTable.of(Engine.SQLITE), 3000); // late: a checkpoint from before it was disabled
            AppliedPositions.Applied applied = AppliedPositions.read(c, AppliedTable.of(Engine.SQLITE));
            assertEquals(3716, applied.floor());
            assertEquals(new TreeSet<>(Set.of(3717L)), applied.above());

            AppliedPositions.raiseFloor(c, AppliedTable.of(Engine.SQLITE), 3800);
            applied = AppliedPositions.read(c, AppliedTable.of(Engine.SQLITE));
            assertEquals(3800, applied.floor());
            assertEquals(Set.of(), applied.above());
        }
    }

    /**
     * The record a controller keeps in a nested controller's virtual database is a table of its
     * own, apart from the sub-controller's {@code phalanx_applied} on the same leaves (here one
     * SQLite file stands for a leaf holding both): neither reads or changes the other's rows.
     */
    @Test
    void theRecordOfTheControllerAboveIsApartFromTheSubsOwn() throws Exception {
        AppliedTable upper = AppliedTable.nested(org.phalanx.recoverylog.ControllerTables.upperApplied(
                "jdbc:phalanx://127.0.0.1:25322/sub1"));
        AppliedTable own = AppliedTable.of(Engine.SQLITE);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("leaf.db"))) {
            AppliedPositions.reset(c, own, 7);
            AppliedPositions.reset(c, upper, 500);
            AppliedPositions.record(c, upper, 502);
            AppliedPositions.record(c, own, 8);
            AppliedPositions.raiseFloor(c, upper, 501);
            assertEquals(501, AppliedPositions.read(c, upper).floor());
            assertEquals(new TreeSet<>(Set.of(502L)), AppliedPositions.read(c, upper).above());
            assertEquals(7, AppliedPositions.read(c, own).floor());
            assertEquals(new TreeSet<>(Set.of(8L)), AppliedPositions.read(c, own).above());
        }
    }

    /**
     * On PostgreSQL and MariaDB the record lives outside the application's schema (schema or
     * database {@code phalanx}); the table an earlier version kept beside the application's is
     * moved there at the first read, rows and all, so an upgrade loses nothing.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"postgresql", "mariadb"})
    void anEarlierVersionsRecordIsMovedOutOfTheApplicationsSchema(String engine) throws Exception {
        boolean pg = engine.equals("postgresql");
        String db = "phalanx_applied_move";
        String url = pg ? TestDatabases.createPostgres(db) : TestDatabases.createMariaDb(db);
        try (Connection c = TestDatabases.connect(url); java.sql.Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE phalanx_applied (position BIGINT NOT NULL PRIMARY KEY)");
            s.executeUpdate("INSERT INTO phalanx_applied VALUES (40), (42)");
            Engine e = pg ? Engine.POSTGRESQL : Engine.MARIADB;
            AppliedPositions.Applied applied = AppliedPositions.read(c, AppliedTable.of(e));
            assertEquals(40, applied.floor());
            assertEquals(new TreeSet<>(Set.of(42L)), applied.above());
            try (java.sql.ResultSet rs = c.getMetaData().getTables(pg ? null : c.getCatalog(), pg ? c.getSchema() : null,
                    "phalanx_applied", null)) {
                org.junit.jupiter.api.Assertions.assertFalse(rs.next(), "the old table is gone");
            }
            AppliedPositions.record(c, AppliedTable.of(e), 43);
            assertEquals(new TreeSet<>(Set.of(42L, 43L)), AppliedPositions.read(c, AppliedTable.of(e)).above());
        } finally {
            if (pg) {
                TestDatabases.dropPostgres(db);
            } else {
                try (Connection c = TestDatabases.connect(url); java.sql.Statement s = c.createStatement()) {
                    s.executeUpdate("DELETE FROM phalanx.applied WHERE db = DATABASE()"); // the server's shared record
                }
                TestDatabases.dropMariaDb(db);
            }
        }
    }

    /** PostgreSQL refuses these inside a transaction (25001): they run on their own, their record after. */
    @org.junit.jupiter.api.Test
    void statementsTheEnginesRefuseInATransactionRunOnTheirOwn() {
        for (String sql : new String[] {"VACUUM", "CREATE DATABASE x", "DROP DATABASE x", "CREATE TABLESPACE ts LOCATION '/x'",
                "drop tablespace ts", "CREATE INDEX CONCURRENTLY i ON t (a)"}) {
            org.junit.jupiter.api.Assertions.assertTrue(AppliedPositions.runsOutsideTransactions(sql), sql);
        }
        org.junit.jupiter.api.Assertions.assertFalse(AppliedPositions.runsOutsideTransactions("CREATE TABLE tablespaces (id INT)"));
    }
}
