package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.phalanx.controller.it.Sql.update;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * A {@code java.util.UUID} and {@code setObject(text, Types.OTHER)} parameters, as Hibernate binds
 * UUID keys and JSON columns: on PostgreSQL they reach a {@code uuid} or {@code jsonb} column, and
 * compare with one, as through pgjdbc (sent as text they failed: "column is of type uuid but
 * expression is of type character varying"); elsewhere they are text. A {@code uuid} column reads
 * back as a {@code UUID}. Replicas end identical.
 */
class UntypedParametersIT extends WithEngineCluster {
    @ParameterizedTest
    @EnumSource(Kind.class)
    void uuidsAndOtherTypedTextReachTheirColumns(Kind kind) throws Exception {
        cluster = new EngineCluster(dir, kind, 2, "phalanx_untyped", "");
        boolean pg = kind == Kind.POSTGRESQL;
        UUID id = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate(pg ? "CREATE TABLE docs (id UUID PRIMARY KEY, body JSONB, n INTEGER)"
                    : "CREATE TABLE docs (id VARCHAR(36) PRIMARY KEY, body TEXT, n INTEGER)");
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO docs (id, body, n) VALUES (?, ?, ?)")) {
                insert.setObject(1, id);
                insert.setObject(2, "{\"a\": 1}", Types.OTHER);
                insert.setInt(3, 1);
                assertEquals(1, insert.executeUpdate());
            }
            try (PreparedStatement update = c.prepareStatement("UPDATE docs SET n = n + 1 WHERE id = ?")) {
                update.setObject(1, id);
                assertEquals(1, update.executeUpdate());
            }
            try (PreparedStatement read = c.prepareStatement("SELECT n, body FROM docs WHERE id = ?")) {
                read.setObject(1, id.toString(), Types.OTHER);
                try (ResultSet rs = read.executeQuery()) {
                    rs.next();
                    assertEquals(2, rs.getInt(1));
                    assertEquals("{\"a\": 1}", rs.getString(2));
                }
            }
            try (ResultSet rs = c.createStatement().executeQuery("SELECT id FROM docs")) {
                rs.next();
                // as pgjdbc: a uuid column's getObject is a UUID (elsewhere the column is text)
                assertEquals(pg ? id : id.toString(), rs.getObject(1));
            }
            update(c, "DELETE FROM docs WHERE n = 0");
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        assertEquals(1, cluster.assertIdentical("docs", "id"));
    }
}
