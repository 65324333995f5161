package org.phalanx.requestmanager.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.SessionSettings;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.testing.ServerDatabase;

/**
 * When a kept description of a statement's result is used, and when the driver is asked again: on
 * a PostgreSQL backend (MariaDB's results are typed as PostgreSQL's are), and on SQLite, whose
 * results are always described afresh.
 */
class ResultDescriptionsTest {
    private static final String SELECT = "SELECT id, v FROM t WHERE id = ?";

    @TempDir
    Path dir;
    private ServerDatabase db;
    private Backend backend;
    private Connection c;
    private final ResultDescriptions descriptions = new ResultDescriptions();

    @BeforeEach
    void start() throws Exception {
        db = ServerDatabase.create("postgresql", "phalanx_descriptions_unit");
        backend = backendOn(BackendConfig.builder("b", db.url()).credentials(db.login()));
    }

    private Backend backendOn(BackendConfig.Builder config) throws SQLException {
        Backend b = new Backend(config.poolSize(2).build(), Duration.ofSeconds(5), x -> { });
        b.enable();
        String user = b.config().credentials() == null ? null : b.config().credentials().user();
        c = b.connectionFor(user == null ? "u" : user);
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
            s.execute("INSERT INTO t VALUES (1, 10)");
        }
        return b;
    }

    @AfterEach
    void stop() throws SQLException {
        c.close();
        backend.close(Duration.ofSeconds(5));
        db.close();
    }

    /** Runs the read as the read path does: the describing taken before it runs. */
    private ResultSetMetaData described(String sql, SessionSettings settings, Object... params) throws SQLException {
        ResultDescriptions.Describing describing = descriptions.before(backend, sql, Request.of(sql, params), settings);
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return describing.describe(rs);
            }
        }
    }

    @Test
    void aStatementRunAgainIsNotDescribedAgain() throws SQLException {
        ResultSetMetaData first = described(SELECT, SessionSettings.NONE, 1);
        assertEquals("v", first.getColumnLabel(2));
        assertSame(first, described(SELECT, SessionSettings.NONE, 2));
        assertEquals(1, descriptions.size());
    }

    @Test
    void otherParameterTypesOrSessionSettingsAreDescribedByTheDriver() throws SQLException {
        ResultSetMetaData byInteger = described(SELECT, SessionSettings.NONE, 1);
        assertNotSame(byInteger, described(SELECT, SessionSettings.NONE, 1L));
        SessionSettings set = SessionSettings.NONE.with("search_path", "SET search_path = public");
        assertNotSame(described(SELECT, set, 1), described(SELECT, set, 1));
        assertSame(byInteger, described(SELECT, SessionSettings.NONE, 1));
    }

    @Test
    void nothingKeptIsUsedWhileASchemaChangeRunsNorAfterIt() throws SQLException {
        ResultSetMetaData before = described("SELECT * FROM t", SessionSettings.NONE);
        assertEquals(2, before.getColumnCount());
        descriptions.schemaChanging();
        try (Statement s = c.createStatement()) {
            s.execute("ALTER TABLE t ADD COLUMN w TEXT");
        }
        ResultSetMetaData during = described("SELECT * FROM t", SessionSettings.NONE);
        assertEquals(3, during.getColumnCount());
        assertNotSame(during, described("SELECT * FROM t", SessionSettings.NONE), "not kept while it runs");
        descriptions.schemaChanged();
        ResultSetMetaData after = described("SELECT * FROM t", SessionSettings.NONE);
        assertEquals("w", after.getColumnLabel(3));
        assertSame(after, described("SELECT * FROM t", SessionSettings.NONE));
    }

    @Test
    void aSchemaChangeOrderedWhileAStatementRunsIsNotOverlooked() throws SQLException {
        ResultSetMetaData kept = described(SELECT, SessionSettings.NONE, 1);
        ResultDescriptions.Describing describing = descriptions.before(backend, SELECT, Request.of(SELECT, 1),
                SessionSettings.NONE);
        descriptions.schemaChanging(); // ordered after the statement was about to run: it may have run first
        descriptions.schemaChanged();
        try (PreparedStatement ps = c.prepareStatement(SELECT)) {
            ps.setInt(1, 1);
            try (ResultSet rs = ps.executeQuery()) {
                assertNotSame(kept, describing.describe(rs));
            }
        }
        assertEquals(0, descriptions.size());
    }

    @Test
    void sqliteResultsAreDescribedAfreshAsTheirTypesFollowTheValues() throws SQLException {
        c.close();
        backend.close(Duration.ofSeconds(5));
        backend = backendOn(BackendConfig.builder("s", "jdbc:sqlite:" + dir.resolve("s.db")));
        String expression = "SELECT max(v) + 1 AS m FROM t";
        ResultSetMetaData first = described(expression, SessionSettings.NONE);
        assertNotSame(first, described(expression, SessionSettings.NONE));
        assertEquals(0, descriptions.size());
    }

    @Test
    void longTextsAreNotKept() throws SQLException {
        String longText = SELECT + " " + "AND 1 = 1 ".repeat(ResultDescriptions.LONGEST_TEXT / 10);
        assertNotSame(described(longText, SessionSettings.NONE, 1), described(longText, SessionSettings.NONE, 1));
        assertEquals(0, descriptions.size());
    }

    @Test
    void aBackendPutInServiceAgainIsDescribedAgain() throws SQLException {
        ResultSetMetaData first = described(SELECT, SessionSettings.NONE, 1);
        backend.disable("test");
        backend.enable(); // from a restored dump, say, whose types may differ
        assertNotSame(first, described(SELECT, SessionSettings.NONE, 1));
    }

    @Test
    void resultsWithOtherColumnsThanTheKeptOnesAreDescribedAgain() throws SQLException {
        ResultSetMetaData kept = described("SELECT * FROM t", SessionSettings.NONE);
        try (Statement s = c.createStatement()) { // behind the controller's back
            s.execute("ALTER TABLE t ADD COLUMN w TEXT");
        }
        ResultSetMetaData now = described("SELECT * FROM t", SessionSettings.NONE);
        assertNotSame(kept, now);
        assertEquals(3, now.getColumnCount());
    }
}
