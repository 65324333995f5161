package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.phalanx.testing.Sessions.update;
import static org.phalanx.testing.Sessions.value;

import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.testing.ServerReplicas;

/**
 * Session state set by statements the analysis would otherwise run on one pooled backend
 * connection, where it would stay for the next client: PostgreSQL's {@code set_config} and
 * {@code SET SESSION CHARACTERISTICS}. Each belongs to its session only, on two backends.
 */
class PooledSessionStateTest {
    private ServerReplicas replicas;
    private RequestManager rm;

    @BeforeEach
    void start() throws Exception {
        replicas = new ServerReplicas("postgresql", "phalanx_pooled_state");
        rm = replicas.requestManager();
    }

    @AfterEach
    void stop() {
        if (replicas != null) {
            replicas.close();
        }
    }

    /** DISCARD ALL, a pooler's reset: the session's parameters, advisory locks and temporary tables go, as on PostgreSQL. */
    @Test
    void discardAllResetsTheSession() throws Exception {
        try (Session s = rm.openSession("u"); Session other = rm.openSession("u")) {
            update(s, "SET statement_timeout = '5s'");
            value(s, "SELECT pg_advisory_lock(7)");
            update(s, "CREATE TEMP TABLE scratch (id INTEGER)");
            update(s, "DISCARD PLANS");
            assertEquals("5s", value(s, "SHOW statement_timeout"));
            s.setAutoCommit(false);
            SQLException inside = assertThrows(SQLException.class, () -> update(s, "DISCARD ALL"));
            assertEquals("25001", inside.getSQLState(), inside.getMessage());
            s.rollback();
            s.setAutoCommit(true);
            update(s, "DISCARD ALL");
            assertEquals("0", value(s, "SHOW statement_timeout"));
            assertEquals(Boolean.TRUE, value(other, "SELECT pg_try_advisory_lock(7)"), "the lock was released");
            SQLException gone = assertThrows(SQLException.class, () -> value(s, "SELECT count(*) FROM scratch"));
            assertEquals("42P01", gone.getSQLState(), gone.getMessage());
        }
    }

    @Test
    void setConfigBelongsToItsSession() throws Exception {
        try (Session tenant = rm.openSession("u"); Session other = rm.openSession("u")) {
            assertEquals("42", value(tenant, "SELECT set_config('app.tenant_id', '42', false)"));
            for (int i = 0; i < 6; i++) { // whichever pooled connection of either backend answers
                assertEquals("42", value(tenant, "SELECT current_setting('app.tenant_id', true)"), "its own session");
                assertNotEquals("42", value(other, "SELECT current_setting('app.tenant_id', true)"), "another session");
            }
            assertEquals("7", value(other, "SELECT set_config(?, ?, false)", "app.tenant_id", "7"));
            assertEquals("7", value(other, "SELECT current_setting('app.tenant_id')"));
            assertEquals("42", value(tenant, "SELECT current_setting('app.tenant_id')"));
            // a search path of identifiers, as Flyway sets it, names each schema
            update(tenant, "CREATE SCHEMA s1");
            assertEquals("\"s1\", public", value(tenant, "SELECT set_config('search_path', ?, false)", "\"s1\", public"));
            update(tenant, "CREATE TABLE in_s1 (id INTEGER)");
            assertEquals("s1", value(tenant, "SELECT table_schema FROM information_schema.tables WHERE table_name = 'in_s1'"));
            SQLException elsewhere = assertThrows(SQLException.class,
                    () -> value(tenant, "SELECT set_config('app.x', v, false) FROM (VALUES ('1')) AS t(v)"));
            assertEquals("0A000", elsewhere.getSQLState(), elsewhere.getMessage());
        }
    }

    @Test
    void sessionCharacteristicsBelongToTheSession() throws Exception {
        try (Session readOnly = rm.openSession("u"); Session writer = rm.openSession("u")) {
            update(writer, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
            update(readOnly, "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
            SQLException refused = assertThrows(SQLException.class, () -> update(readOnly, "INSERT INTO t VALUES (1)"));
            assertEquals("25006", refused.getSQLState(), refused.getMessage());
            for (int i = 0; i < 4; i++) {
                assertEquals(1L, update(writer, "INSERT INTO t VALUES (" + (i + 10) + ")"), "another session writes");
            }
            update(readOnly, "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE");
            assertEquals(1L, update(readOnly, "INSERT INTO t VALUES (1)"));
            // BEGIN READ ONLY: that transaction only
            update(writer, "BEGIN READ ONLY");
            SQLException inReadOnly = assertThrows(SQLException.class, () -> update(writer, "INSERT INTO t VALUES (2)"));
            assertEquals("25006", inReadOnly.getSQLState(), inReadOnly.getMessage());
            update(writer, "ROLLBACK");
            assertEquals(1L, update(writer, "INSERT INTO t VALUES (2)"), "the next transaction writes");
            SQLException several = assertThrows(SQLException.class,
                    () -> update(readOnly, "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY, DEFERRABLE"));
            assertEquals("0A000", several.getSQLState(), several.getMessage());
        }
    }

    /**
     * On PostgreSQL a failed statement aborts its transaction, also a read before the first write
     * (which runs on a pooled connection): what follows, and the commit, fail; nothing is committed.
     */
    @Test
    void aFailedReadAbortsTheTransactionAsOnPostgres() throws Exception {
        try (Session s = rm.openSession("u")) {
            update(s, "CREATE TABLE tx (id INTEGER PRIMARY KEY)");
            s.setAutoCommit(false);
            SQLException divide = assertThrows(SQLException.class, () -> value(s, "SELECT 1 / 0"));
            assertEquals("22012", divide.getSQLState(), divide.getMessage());
            SQLException next = assertThrows(SQLException.class, () -> update(s, "INSERT INTO tx VALUES (5)"));
            assertEquals("25P02", next.getSQLState(), next.getMessage());
            s.rollback();
            update(s, "INSERT INTO tx VALUES (6)");
            s.commit();
            s.setAutoCommit(true);
            assertEquals(1L, ((Number) value(s, "SELECT count(*) FROM tx")).longValue(), "only the later transaction's row");
        }
    }
}
