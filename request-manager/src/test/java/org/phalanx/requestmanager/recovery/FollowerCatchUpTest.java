package org.phalanx.requestmanager.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.engine.Engine;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.config.BackendConfig;

/** A follower's backends kept current with its copy of the group's log, and the moment they hold it exactly. */
class FollowerCatchUpTest {
    @TempDir
    Path dir;

    private Backend backend() {
        return new Backend(BackendConfig.builder("db1", "jdbc:sqlite:" + dir.resolve("db1.db")).build(),
                Duration.ofSeconds(5), x -> {
                });
    }

    @Test
    void afterARestoredDumpTheBackendsHoldTheLogExactlyDespiteTransactionsCutOffBelowIt() throws Exception {
        Backend b = backend();
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            // before it stopped: a transaction open at position 2, whose commit (at 3..5) its copy never got
            log.append(LogEntry.statement(1, "u", "CREATE TABLE t (id INTEGER)", List.of(), Set.of("db1")));
            log.append(LogEntry.write(2, 7, "u", "INSERT INTO t VALUES (0)", List.of(), Set.of("db1")));
            // a dump at 5 restored: the backend holds everything up to 5, the copy goes on from 6
            try (Connection c = b.connection(b.config().credentials()); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (id INTEGER)");
                AppliedPositions.reset(c, AppliedTable.of(Engine.SQLITE), 5);
            }
            new BackendStates(log).enabled(b);
            log.append(LogEntry.statement(6, "u", "INSERT INTO t VALUES (6)", List.of(), Set.of("db1")));
            log.append(LogEntry.write(7, 8, "u", "INSERT INTO t VALUES (7)", List.of(), Set.of("db1")));
            log.append(LogEntry.commit(8, 8, "u", Set.of("db1")));
            log.settle();

            FollowerCatchUp catchUp = new FollowerCatchUp("vdb", List.of(b), log);
            catchUp.pass();
            assertEquals(8, catchUp.caughtUpTo());
            assertEquals(8, catchUp.exactPosition(), "no transaction open after the dump: a moment to dump"
                    + " (reading from the log's start, transaction 7 looked open for ever)");
            try (Connection c = b.connection(b.config().credentials()); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
                rs.next();
                assertEquals(2, rs.getLong(1), "only what follows the dump was replayed");
            }
        } finally {
            b.close(Duration.ZERO);
        }
    }

    @Test
    void passesRaiseTheFloorsAtMostOnceASecondUnlessAskedForTheExactPosition() throws Exception {
        Backend b = backend();
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            log.append(LogEntry.statement(1, "u", "CREATE TABLE t (id INTEGER)", List.of(), Set.of("db1")));
            log.settle();
            FollowerCatchUp catchUp = new FollowerCatchUp("vdb", List.of(b), log, Duration.ofHours(1));
            catchUp.pass();
            assertEquals(1, catchUp.exactPosition(), "the first pass raises the floor");

            log.append(LogEntry.statement(2, "u", "INSERT INTO t VALUES (2)", List.of(), Set.of("db1")));
            log.settle();
            catchUp.pass();
            assertEquals(2, catchUp.caughtUpTo());
            assertEquals(-1, catchUp.exactPosition(), "a pass right after it leaves the floor where it was");
            assertEquals(2, catchUp.passToExactPosition(), "raised when asked, with nothing new to replay");

            // writes stop: once due, a pass with nothing new to replay raises the floors to the end
            FollowerCatchUp soon = new FollowerCatchUp("vdb", List.of(b), log, Duration.ofMillis(200));
            soon.pass();
            log.append(LogEntry.statement(3, "u", "INSERT INTO t VALUES (3)", List.of(), Set.of("db1")));
            log.settle();
            soon.pass();
            Thread.sleep(300);
            soon.pass();
            assertEquals(3, soon.exactPosition());
        } finally {
            b.close(Duration.ZERO);
        }
    }
}
