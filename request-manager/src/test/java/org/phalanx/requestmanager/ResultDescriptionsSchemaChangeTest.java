package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.testing.Sessions.update;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.testing.ServerDatabase;

/**
 * What results look like is kept per statement ({@code exec.ResultDescriptions}); a column whose
 * type changes through the virtual database (same name, same count: only the schema change tells)
 * is described with its new type at once, by plain reads and by the rows a locking read returns
 * inside a transaction, on PostgreSQL and MariaDB; a MariaDB column whose size follows a
 * parameter's value is described for each value.
 */
class ResultDescriptionsSchemaChangeTest {
    private static final String DB = "phalanx_result_descriptions";
    private static final String READ = "SELECT id, v FROM t WHERE id = ?";
    private static final String LOCKING_READ = "SELECT id, v FROM t WHERE id = ? FOR UPDATE";
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
    void aColumnsNewTypeIsSeenAtOnce(String target) throws Exception {
        db = ServerDatabase.create(target, DB);
        boolean pg = db.isPostgres();
        rm = new RequestManager("descriptions", RequestManagerConfig.builder().lockTimeout(Duration.ofSeconds(10)).build(),
                List.of(BackendConfig.builder("b", db.url()).credentials(db.login()).poolSize(2).build()));
        rm.start();
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
            update(s, "INSERT INTO t VALUES (1, 10)");
            for (int round = 0; round < 2; round++) { // the second round runs on what was kept
                assertEquals(Types.INTEGER, typeOfV(s, READ), "round " + round);
                assertEquals(Types.INTEGER, typeOfVInTransaction(s), "round " + round);
            }
            update(s, pg ? "ALTER TABLE t ALTER COLUMN v TYPE VARCHAR(20)" : "ALTER TABLE t MODIFY v VARCHAR(20)");
            for (int round = 0; round < 2; round++) {
                assertEquals(Types.VARCHAR, typeOfV(s, READ), "after the change, round " + round);
                assertEquals(Types.VARCHAR, typeOfVInTransaction(s), "after the change, round " + round);
            }
        }
    }

    /** MariaDB's driver writes parameters into the text: a parameter's column is as long as its value. */
    @Test
    void aMariaDbColumnSizedByItsParameterIsDescribedForEachValue() throws Exception {
        db = ServerDatabase.create("mariadb", DB);
        rm = new RequestManager("descriptions", RequestManagerConfig.builder().lockTimeout(Duration.ofSeconds(10)).build(),
                List.of(BackendConfig.builder("b", db.url()).credentials(db.login()).poolSize(2).build()));
        rm.start();
        try (Session s = rm.openSession("u")) {
            int shortSize = displaySize(s, "ab");
            int longSize = displaySize(s, "abcdefghij");
            assertTrue(longSize > shortSize, shortSize + " then " + longSize);
            assertEquals(shortSize, displaySize(s, "ab"));
        }
    }

    private static int displaySize(Session s, String value) throws SQLException {
        try (Result r = s.execute(Request.of("SELECT ? AS s", value))) {
            return ((Result.Rows) r).metaData().getColumnDisplaySize(1);
        }
    }

    private static int typeOfV(Session s, String sql) throws SQLException {
        try (Result r = s.execute(Request.of(sql, 1))) {
            ResultSetMetaData md = r instanceof Result.Rows rows ? rows.metaData() : ((Result.Cached) r).metaData();
            assertEquals(2, md.getColumnCount());
            return md.getColumnType(2);
        }
    }

    private static int typeOfVInTransaction(Session s) throws SQLException {
        s.setAutoCommit(false);
        try {
            return typeOfV(s, LOCKING_READ);
        } finally {
            s.commit();
            s.setAutoCommit(true);
        }
    }
}
