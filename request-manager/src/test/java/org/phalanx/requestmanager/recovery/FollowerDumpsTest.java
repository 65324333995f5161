package org.phalanx.requestmanager.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.engine.Engine;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.config.BackendConfig;

/** A partially replicating member's dumps: the union of its backends, restored each table where its placement says. */
class FollowerDumpsTest {
    @TempDir
    Path dir;
    private final List<Backend> opened = new ArrayList<>();

    @AfterEach
    void close() {
        opened.forEach(b -> b.close(Duration.ZERO));
    }

    private Backend backend(String name) {
        Backend b = new Backend(BackendConfig.builder(name, "jdbc:sqlite:" + dir.resolve(name + ".db")).build(),
                Duration.ofSeconds(5), x -> {
                });
        opened.add(b);
        return b;
    }

    private static void run(Backend b, String... sql) throws SQLException {
        try (Connection c = b.connection(b.config().credentials()); Statement s = c.createStatement()) {
            for (String q : sql) {
                s.execute(q);
            }
        }
    }

    private static Set<String> tables(Backend b) throws SQLException {
        Set<String> names = new TreeSet<>();
        try (Connection c = b.connection(b.config().credentials()); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        names.removeIf(n -> n.startsWith("phalanx_") || n.startsWith("sqlite_"));
        return names;
    }

    @Test
    void theUnionOfTheBackendsIsRestoredWithEachTableOnlyWhereThePlacementPutsIt() throws Exception {
        Backend a = backend("a");
        Backend b = backend("b");
        run(a, "CREATE TABLE acc (id INTEGER PRIMARY KEY, bal INTEGER)", "INSERT INTO acc VALUES (1, 10), (2, 20)",
                "CREATE TABLE notes (id INTEGER PRIMARY KEY)", "INSERT INTO notes VALUES (1)");
        run(b, "CREATE TABLE notes (id INTEGER PRIMARY KEY)", "INSERT INTO notes VALUES (1)",
                "CREATE TABLE transfers (id INTEGER PRIMARY KEY)", "INSERT INTO transfers VALUES (5), (6)");
        Path dump = dir.resolve("union.dump");
        Map<Backend, Set<String>> parts = new LinkedHashMap<>();
        parts.put(a, Set.of("acc", "notes"));
        parts.put(b, Set.of("transfers"));
        FollowerDumps.takeUnion(parts, dump, 40);

        Backend x = backend("x");
        Backend y = backend("y");
        run(x, "CREATE TABLE transfers (id INTEGER PRIMARY KEY)", "INSERT INTO transfers VALUES (1)"); // stale
        run(y, "CREATE TABLE mine (id INTEGER)"); // not in the dump: left alone, as on a full member
        try (FileRecoveryLog log = new FileRecoveryLog(dir.resolve("log"))) {
            FollowerDumps.restore(List.of(x, y), log, dump, 40);
            FollowerDumps.dropUnplaced(List.of(x, y), dump, Map.of("x", Set.of("acc", "notes"), "y",
                    Set.of("NOTES", "transfers")));
        }
        assertEquals(Set.of("acc", "notes"), tables(x), "transfers is placed on y only");
        assertEquals(Set.of("mine", "notes", "transfers"), tables(y));
        try (Connection c = y.connection(y.config().credentials()); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT SUM(id) FROM transfers")) {
            rs.next();
            assertEquals(11, rs.getLong(1), "b's transfers");
        }
        try (Connection c = x.connection(x.config().credentials())) {
            assertEquals(40, AppliedPositions.read(c, AppliedTable.of(Engine.SQLITE)).floor(), "its record: everything up to the dump");
        }
    }
}
