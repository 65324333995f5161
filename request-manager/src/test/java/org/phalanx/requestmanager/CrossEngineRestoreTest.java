package org.phalanx.requestmanager;

import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.Credentials;
import org.phalanx.requestmanager.config.RecoveryConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.testing.ServerDatabase;

/**
 * Done-when 3 of the recovery issue: a dump of a SQLite backend restores onto PostgreSQL or
 * MariaDB with the same rows and compatible types, and that backend then joins the virtual
 * database by replaying the log.
 */
class CrossEngineRestoreTest {
    private static final String DB = "phalanx_restore_test";

    @TempDir
    Path dir;
    private RequestManager rm;
    private ServerDatabase db;

    @AfterEach
    void stop() {
        if (rm != null) {
            rm.close();
        }
        if (db != null) {
            db.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aSqliteDumpRestoresOntoAnotherEngineWhichThenJoins(String target) throws Exception {
        db = ServerDatabase.create(target, DB);
        String url = db.url();
        Credentials login = db.login();
        String sqlite = "jdbc:sqlite:" + dir.resolve("source.db");
        try (Connection c = DriverManager.getConnection(sqlite); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, big BIGINT, price DECIMAL(10,2), name VARCHAR(40),"
                    + " flag BOOLEAN, at TIMESTAMP, data BLOB)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                ps.setInt(1, 1);
                ps.setLong(2, Long.MAX_VALUE);
                ps.setBigDecimal(3, new BigDecimal("1234.56"));
                ps.setString(4, "héllo");
                ps.setBoolean(5, true);
                ps.setString(6, "2024-02-29 12:34:56.000");
                ps.setBytes(7, new byte[] {0, 1, (byte) 0xFF});
                ps.executeUpdate();
                ps.setInt(1, 2);
                for (int i = 2; i <= 7; i++) {
                    ps.setNull(i, java.sql.Types.NULL);
                }
                ps.executeUpdate();
            }
        }
        List<BackendConfig> backends = List.of(
                BackendConfig.builder("lite", sqlite).poolSize(5).build(),
                BackendConfig.builder("other", url).credentials(login).poolSize(5).build());
        RequestManagerConfig config = RequestManagerConfig.builder().waitPolicy(WaitPolicy.ALL)
                .lockTimeout(Duration.ofSeconds(10)).analysisCacheSize(100)
                .recovery(new RecoveryConfig(new FileRecoveryLog(dir.resolve("log")), true)).build();
        rm = new RequestManager("mixed", config, backends);
        rm.start();
        rm.disableBackend("other"); // the new replica starts empty, out of service
        Path dump = dir.resolve("lite.dump");
        rm.backup("lite", dump, null, null);
        try (Session s = rm.openSession("u")) {
            try (Result r = s.execute(Request.of("UPDATE t SET name = 'after the dump' WHERE id = 1"))) {
                assertEquals(1, ((Result.UpdateCount) r).count());
            }
        }
        rm.restore("other", dump, false, null);
        rm.enableBackend("other");
        try (Session s = rm.openSession("u");
             Result r = s.execute(Request.of("INSERT INTO t (id, big, name) VALUES (3, -1, 'joined')"))) {
            assertEquals(1, ((Result.UpdateCount) r).count());
        }
        rm.close();
        rm = null;
        try (Connection c = DriverManager.getConnection(url, login.user(), ""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, big, price, name, flag, at, data FROM t ORDER BY id")) {
            assertTrue(rs.next());
            assertEquals(Long.MAX_VALUE, rs.getLong(2));
            assertEquals(0, new BigDecimal("1234.56").compareTo(rs.getBigDecimal(3)));
            assertEquals("after the dump", rs.getString(4), "replayed after the restore");
            assertTrue(rs.getBoolean(5));
            assertEquals(Timestamp.valueOf("2024-02-29 12:34:56"), rs.getTimestamp(6));
            assertArrayEquals(new byte[] {0, 1, (byte) 0xFF}, rs.getBytes(7));
            assertTrue(rs.next());
            for (int col = 2; col <= 7; col++) {
                assertNull(rs.getObject(col), "NULL in column " + col);
            }
            assertTrue(rs.next());
            assertEquals("joined", rs.getString(4), "live writes reach the new replica");
        }
    }

    /**
     * Issue 15's story: a mixed virtual database whose tables came from portable DDL (SQLite
     * declares the BIGINT identity key INTEGER, its rowid) holds keys above 2^31; the other
     * backend breaks and is rebuilt from a dump of the SQLite one with force, then rejoins.
     */
    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void aSqliteBackendRebuildsTheOtherEngineWithBigKeys(String target) throws Exception {
        db = ServerDatabase.create(target, DB);
        String url = db.url();
        Credentials login = db.login();
        String sqlite = "jdbc:sqlite:" + dir.resolve("lite.db");
        List<BackendConfig> backends = List.of(
                BackendConfig.builder("lite", sqlite).poolSize(5).build(),
                BackendConfig.builder("other", url).credentials(login).poolSize(5).build());
        RequestManagerConfig config = RequestManagerConfig.builder().waitPolicy(WaitPolicy.ALL)
                .lockTimeout(Duration.ofSeconds(10)).analysisCacheSize(100)
                .recovery(new RecoveryConfig(new FileRecoveryLog(dir.resolve("log")), true)).build();
        rm = new RequestManager("mixed", config, backends);
        rm.start();
        byte[] blob = new byte[200_000];
        new java.util.Random(15).nextBytes(blob);
        blob[0] = 0;
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE ledger (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, amount DECIMAL(12,2),"
                    + " at TIMESTAMP, data BLOB, note TEXT)");
            update(s, "INSERT INTO ledger (id, amount, at, data, note) VALUES (3000000000, ?, '2024-02-29 23:59:59.123',"
                    + " ?, ?)", new BigDecimal("12345678.91"), blob, "é 漢字 'q'\nline");
            update(s, "INSERT INTO ledger (amount, note) VALUES (?, NULL)", new BigDecimal("-0.01"));
        }
        rm.disableBackend("other"); // say its disk broke: it is rebuilt from the SQLite backend
        Path dump = dir.resolve("lite.dump");
        rm.backup("lite", dump, null, null);
        try (Session s = rm.openSession("u")) {
            update(s, "UPDATE ledger SET note = 'after the dump' WHERE id = 3000000001");
        }
        rm.restore("other", dump, true, null); // it still holds its old rows: force
        rm.enableBackend("other");
        try (Session s = rm.openSession("u")) {
            update(s, "INSERT INTO ledger (amount) VALUES (1)");
        }
        rm.close();
        rm = null;
        List<String> lite;
        try (Connection c = DriverManager.getConnection(sqlite)) {
            lite = ledger(c);
        }
        try (Connection c = DriverManager.getConnection(url, login.user(), "")) {
            assertEquals(lite, ledger(c), "the rebuilt backend holds what the SQLite one holds");
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT data_type FROM"
                    + " information_schema.columns WHERE table_name = 'ledger' AND column_name = 'id'")) {
                assertTrue(rs.next());
                assertEquals("bigint", rs.getString(1).toLowerCase(java.util.Locale.ROOT));
            }
        }
        assertEquals(3, lite.size(), lite.toString());
        assertTrue(lite.get(0).startsWith("3000000000|12345678.91|2024-02-29T23:59:59.123|" + blob.length + "|"), lite.get(0));
        assertTrue(lite.get(1).startsWith("3000000001|-0.01|null|null|after the dump"), lite.get(1));
        assertTrue(lite.get(2).startsWith("3000000002|1.00|"), "a key above the restored ones: " + lite.get(2));
    }

    private static void update(Session s, String sql, Object... params) throws Exception {
        try (Result r = s.execute(Request.of(sql, params))) {
            assertTrue(r instanceof Result.UpdateCount, sql);
        }
    }

    /** The rows, each value in a form that compares across engines. */
    private static List<String> ledger(Connection c) throws Exception {
        List<String> rows = new java.util.ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, amount, at, data, note FROM ledger ORDER BY id")) {
            while (rs.next()) {
                Object amount = rs.getObject(2);
                Object at = rs.getObject(3);
                byte[] data = rs.getBytes(4);
                rows.add(rs.getLong(1) + "|" + (amount == null ? null
                        : new BigDecimal(amount.toString()).setScale(2, java.math.RoundingMode.UNNECESSARY)) + "|"
                        + (at == null ? null : org.phalanx.recoverylog.dump.ddl.SqliteValues.parseTimestamp(
                                at instanceof Timestamp t ? t.toLocalDateTime().toString() : at.toString()))
                        + "|" + (data == null ? null : data.length + "|" + java.util.Arrays.hashCode(data))
                        + "|" + rs.getString(5));
            }
        }
        return rows;
    }
}
