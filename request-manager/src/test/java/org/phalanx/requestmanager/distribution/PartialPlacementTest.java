package org.phalanx.requestmanager.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.recoverylog.CloseableIterator;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.PlacementRule;
import org.phalanx.requestmanager.config.ReplicationLevel;

/** Which of a partially replicating member's backends each entry of the group's log applies to. */
class PartialPlacementTest {
    private static final List<PlacementRule> RULES = List.of(
            new PlacementRule(Pattern.compile("acc"), PlacementRule.Policy.BACKENDS, List.of("db1", "db2"), 0, "t:1:1"),
            new PlacementRule(Pattern.compile("transfers"), PlacementRule.Policy.BACKENDS, List.of("db2", "db3"), 0,
                    "t:2:1"));

    @TempDir
    Path dir;

    private static PartialPlacement placement() {
        List<BackendConfig> own = new ArrayList<>();
        for (String name : List.of("db1", "db2", "db3")) {
            own.add(BackendConfig.builder(name, "jdbc:sqlite:" + name + ".db").build());
        }
        return new PartialPlacement(own, ReplicationLevel.RAIDB_2, RULES);
    }

    /** Another member's entry (it names that member's backends), as this one copies it. */
    private static Set<String> where(PartialPlacement p, LogEntry e) throws SQLException {
        return p.placed(e, false).backends();
    }

    private static LogEntry statement(long position, String sql) {
        return LogEntry.statement(position, "u", sql, List.of(), Set.of("c2-db1"));
    }

    @Test
    void tablesGoWhereThisMembersRulesPlaceThemAndWritesWhereTheyAre() throws SQLException {
        PartialPlacement p = placement();
        assertEquals(Set.of("db1", "db2"), where(p, statement(1, "CREATE TABLE acc (id INTEGER, bal INTEGER)")));
        assertEquals(Set.of("db2", "db3"), where(p, statement(2, "CREATE TABLE transfers (id INTEGER)")));
        assertEquals(Set.of("db1", "db2", "db3"), where(p, statement(3, "CREATE TABLE notes (id INTEGER)")),
                "RAIDb-2 without a matching rule: everywhere");
        assertEquals(Set.of("db1", "db2"), where(p, statement(4, "INSERT INTO acc VALUES (1, 10)")));
        assertEquals(3, p.lastSchemaChange(), "the last CREATE");
        // a transaction over both tables commits (and rolls back) on every backend one of its writes went to
        assertEquals(Set.of("db1", "db2"), where(p, LogEntry.write(5, 7, "u", "UPDATE acc SET bal = 0", List.of(),
                Set.of("c2-db1"))));
        assertEquals(Set.of("db2", "db3"), where(p, LogEntry.write(6, 7, "u", "INSERT INTO transfers VALUES (1)",
                List.of(), Set.of("c2-db1"))));
        assertEquals(Set.of("db1", "db2", "db3"), where(p, LogEntry.commit(7, 7, "u", Set.of("c2-db1"))));
        assertEquals(List.of("acc", "notes"), p.tablesOf("db1"));
        assertEquals(List.of("notes", "transfers"), p.tablesOf("db3"));
    }

    @Test
    void partitioningPutsEachNewTableOnOneBackendInTurn() throws SQLException {
        List<BackendConfig> own = List.of(BackendConfig.builder("db1", "jdbc:sqlite:db1.db").build(),
                BackendConfig.builder("db2", "jdbc:sqlite:db2.db").build());
        PartialPlacement p = new PartialPlacement(own, ReplicationLevel.RAIDB_0, List.of());
        assertEquals(Set.of("db1"), where(p, statement(1, "CREATE TABLE a (id INTEGER)")));
        assertEquals(Set.of("db2"), where(p, statement(2, "CREATE TABLE b (id INTEGER)")));
        assertEquals(Set.of("db1"), where(p, statement(3, "CREATE TABLE c (id INTEGER)")));
        assertEquals(Set.of("db2"), where(p, statement(4, "INSERT INTO b VALUES (1)")));
    }

    @Test
    void ddlRolledBackOrFailedEverywhereIsUndoneAndAStatementItCannotApplyIsRefused() throws SQLException {
        PartialPlacement p = placement();
        where(p, statement(1, "CREATE TABLE acc (id INTEGER)"));
        where(p, statement(2, "CREATE TABLE transfers (id INTEGER)"));
        where(p, LogEntry.write(3, 9, "u", "CREATE TABLE tmp (id INTEGER)", List.of(), Set.of("c2-db1")));
        where(p, LogEntry.rollback(4, 9, "u", Set.of("c2-db1")));
        where(p, statement(5, "CREATE TABLE bad (id INTEGER)"));
        p.placed(LogEntry.failed(6, 5, "u"), false);
        assertEquals(List.of("acc"), p.tablesOf("db1"), "tmp rolled back, bad failed on the primary");
        assertEquals(6, p.lastSchemaChange());
        SQLException refused = assertThrows(SQLException.class,
                () -> where(p, statement(7, "INSERT INTO acc SELECT id, 0 FROM transfers")));
        assertTrue(refused.getMessage().contains("no enabled backend holds all of them"), refused.getMessage());
    }

    @Test
    void aRestartLearnsThePlacementFromTheCopyAndAPurgedCopyIsRefused() throws Exception {
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            RequestOutcomes outcomes = new RequestOutcomes(Duration.ofMinutes(1));
            LocalLogCopy copy = new LocalLogCopy(log, placement(), outcomes);
            copy.hand(statement(1, "CREATE TABLE acc (id INTEGER)"), false);
            copy.hand(statement(2, "CREATE TABLE t_1 (id INTEGER)"), false);
            copy.hand(statement(3, "INSERT INTO acc SELECT id FROM t_1"), false); // acc on db1, db2; t_1 everywhere
            copy.hand(statement(4, "CREATE TABLE transfers (id INTEGER)"), false);
            copy.hand(statement(5, "INSERT INTO transfers SELECT id FROM acc"), false); // no backend holds both
            copy.hand(statement(6, "INSERT INTO t_1 VALUES (1)"), false);
            copy.hand(LogEntry.statement(7, "u", "INSERT INTO t_1 VALUES (2)", List.of(), Set.of("db1")), true);
            assertTrue(copy.durable(7).isCompletedExceptionally(), "as primary, its backends must not commit what its"
                    + " damaged copy lacks");
            assertTrue(copy.settle() || copy.damage() != null);
            assertTrue(copy.damage() != null && copy.damage().contains("log position 5 cannot be applied"),
                    String.valueOf(copy.damage()));
            List<Set<String>> sentTo = new ArrayList<>();
            try (CloseableIterator<LogEntry> entries = log.read(0)) {
                entries.forEachRemaining(e -> sentTo.add(e.backends()));
            }
            assertEquals(List.of(Set.of("db1", "db2"), Set.of("db1", "db2", "db3"), Set.of("db1", "db2"),
                    Set.of("db2", "db3")), sentTo, "nothing copied from the entry it cannot apply on");

            PartialPlacement restarted = placement();
            restarted.learn(log, null);
            assertEquals(List.of("acc", "t_1"), restarted.tablesOf("db1"));
            assertEquals(List.of("t_1", "transfers"), restarted.tablesOf("db3"));
            assertEquals(Set.of("db2", "db3"), where(restarted, statement(5, "INSERT INTO transfers VALUES (1)")));

            RecoveryLog compacted = new ForwardingRecoveryLog(log) {
                @Override
                public long purgedThrough() {
                    return 2; // what a compaction leaves (the file log purges whole segments only)
                }
            };
            SQLException refused = assertThrows(SQLException.class, () -> placement().learn(compacted, null));
            assertTrue(refused.getMessage().contains("was compacted up to position"), refused.getMessage());
        }
    }

    @Test
    void aCompactedCopyIsLearnedFromItsRecordAndTheEntriesAfterIt() throws Exception {
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            LocalLogCopy copy = new LocalLogCopy(log, placement(), new RequestOutcomes(Duration.ofMinutes(1)));
            copy.hand(statement(11, "CREATE TABLE notes (id INTEGER)"), false);
            copy.hand(statement(12, "INSERT INTO acc VALUES (1)"), false);
            assertTrue(copy.settle());
            // what the purged entries had made of the view, as recorded with the dump at position 10
            PlacementRecord atDump = new PlacementRecord(10, java.util.Map.of("db1", Set.of("acc"), "db2",
                    Set.of("acc", "transfers"), "db3", Set.of("transfers")));
            atDump.save(log);
            assertEquals(atDump, PlacementRecord.load(log), "kept as a state of the local log");
            RecoveryLog compacted = new ForwardingRecoveryLog(log) {
                @Override
                public long purgedThrough() {
                    return 10;
                }
            };
            PartialPlacement restarted = placement();
            restarted.learn(compacted, PlacementRecord.load(log));
            assertEquals(List.of("acc", "notes"), restarted.tablesOf("db1"));
            assertEquals(List.of("notes", "transfers"), restarted.tablesOf("db3"));
            assertEquals(Set.of("db2", "db3"), where(restarted, statement(13, "INSERT INTO transfers VALUES (1)")));

            SQLException stale = assertThrows(SQLException.class, () -> placement().learn(new ForwardingRecoveryLog(log) {
                @Override
                public long purgedThrough() {
                    return 11; // purged past the record: entry 11 (CREATE TABLE notes) is lost
                }
            }, atDump));
            assertTrue(stale.getMessage().contains("past the record"), stale.getMessage());
        }
    }

    @Test
    void aReceivedDumpsTablesArePlacedByThisMembersRulesAndTheViewGoesOnFromThere() throws SQLException {
        PartialPlacement p = placement();
        where(p, statement(1, "CREATE TABLE old (id INTEGER)"));
        PlacementRecord placed = p.restart(50, List.of("acc", "transfers", "other"));
        assertEquals(java.util.Map.of("db1", Set.of("acc", "other"), "db2", Set.of("acc", "transfers", "other"),
                "db3", Set.of("transfers", "other")), placed.tables(), "RAIDb-2 puts a table no rule names everywhere");
        assertEquals(50, placed.position());
        assertEquals(List.of("acc", "other"), p.tablesOf("db1"), "the view is the dump's: old is gone from it");
        assertEquals(Set.of("db2", "db3"), where(p, statement(51, "INSERT INTO transfers VALUES (1)")));
        assertEquals(placed, PlacementRecord.decode(placed.encode()));
    }

    @Test
    void theViewAtADumpsPositionIsKeptWhileTablesMoveAfterIt() throws SQLException {
        PartialPlacement p = placement();
        assertEquals(Set.of(), p.viewAt(-1).union(), "nothing anywhere before the first entry");
        where(p, statement(1, "CREATE TABLE acc (id INTEGER)"));
        where(p, statement(2, "INSERT INTO acc VALUES (1)"));
        assertEquals(null, p.viewAt(3), "not placed that far yet");
        PlacementRecord at2 = p.viewAt(2);
        assertEquals(2, at2.position());
        assertEquals(Set.of("acc"), at2.tables().get("db2"));
        assertEquals(Set.of(), at2.tables().get("db3"));
        where(p, statement(3, "CREATE TABLE transfers (id INTEGER)"));
        where(p, statement(4, "DROP TABLE acc"));
        assertEquals(at2, p.viewAt(2), "a follower's backends at 2 still hold what the view said there");
        assertEquals(Set.of("acc", "transfers"), p.viewAt(3).union());
        assertEquals(Set.of("transfers"), p.viewAt(4).union());
        assertEquals(Set.of(), p.viewAt(0).union());
    }
}
