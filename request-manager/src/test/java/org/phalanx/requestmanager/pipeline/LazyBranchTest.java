package org.phalanx.requestmanager.pipeline;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.SessionSettings;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.testkit.jdbc.FaultyDriver;

/**
 * A thread blocked in a branch's call on a stopped server (here its commit, which a client's own
 * thread may run) is freed when the backend leaves service: the abort of its connection must
 * reach the connection while the call still runs, so the branch may not hold its monitor during
 * the call.
 */
class LazyBranchTest {
    private static final String NAME = "lazy-branch";

    @TempDir
    Path dir;
    private Backend backend;

    @BeforeEach
    void start() throws Exception {
        String url = FaultyDriver.url(NAME, "jdbc:sqlite:" + dir.resolve("b.db"));
        backend = new Backend(BackendConfig.builder("b", url).poolSize(2).build(), Duration.ofSeconds(5), b -> { });
        backend.enable();
    }

    @AfterEach
    void stop() {
        FaultyDriver.fault(NAME).reset();
        backend.close(Duration.ofSeconds(5));
    }

    @Test
    void aCommitBlockedOnAStoppedServerIsFreedWhenTheBackendLeavesService() throws Exception {
        Connection branch = LazyBranch.of(backend, "u", SessionSettings.NONE, Connection.TRANSACTION_READ_COMMITTED);
        try (Statement st = branch.createStatement()) {
            st.executeUpdate("CREATE TABLE t (id INTEGER)"); // the branch opens
        }
        FaultyDriver.fault(NAME).hang();
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread client = new Thread(() -> {
            try (var running = backend.running().startOn(branch, "a commit")) {
                branch.commit();
                outcome.set(new AssertionError("the commit returned on a stopped server"));
            } catch (SQLException e) {
                outcome.set(e);
            }
        });
        client.start();
        while (client.getState() != Thread.State.WAITING) { // inside the stopped server's commit
            assertFalse(client.getState() == Thread.State.TERMINATED, "the commit ended: " + outcome.get());
            Thread.sleep(5);
        }
        backend.disable("test: the server stopped");
        client.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(client.isAlive(), "the client's thread is still blocked in the commit");
        assertInstanceOf(SQLException.class, outcome.get());
        branch.close();
    }
}
