package org.phalanx.requestmanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.phalanx.testing.Sessions.update;

import java.nio.file.Path;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.testing.EngineReplicas;

/**
 * An {@code updated_at} trigger calling now() (or one drawing a random value) left each replica
 * with its own value on every engine: its creation is refused, before anything runs; a trigger
 * that computes nothing of its own is created and runs everywhere alike.
 */
class UnrepeatableTriggersTest {
    @TempDir
    Path dir;
    private EngineReplicas replicas;

    @AfterEach
    void stop() {
        if (replicas != null) {
            replicas.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql", "mariadb"})
    void aTriggerReadingTheClockIsRefusedAndAnOtherRuns(String engine) throws Exception {
        replicas = new EngineReplicas(engine, dir, "phalanx_triggers");
        try (Session s = replicas.requestManager().openSession("u")) {
            update(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER, at VARCHAR(40))");
            update(s, "CREATE TABLE audit (id INTEGER PRIMARY KEY)");
            String clock = switch (engine) {
                case "postgresql" -> "CREATE FUNCTION touch() RETURNS trigger AS $$ BEGIN NEW.at = now()::text;"
                        + " RETURN NEW; END; $$ LANGUAGE plpgsql";
                case "mariadb" -> "CREATE TRIGGER touch BEFORE UPDATE ON t FOR EACH ROW SET NEW.at = NOW(6)";
                default -> "CREATE TRIGGER touch AFTER UPDATE OF v ON t BEGIN"
                        + " UPDATE t SET at = strftime('%Y-%m-%d %H:%M:%f', 'now') WHERE id = NEW.id; END";
            };
            SQLFeatureNotSupportedException refused = assertThrows(SQLFeatureNotSupportedException.class,
                    () -> update(s, clock));
            assertEquals("0A000", refused.getSQLState(), refused.getMessage());

            if (engine.equals("postgresql")) {
                update(s, "CREATE FUNCTION audited() RETURNS trigger AS $$ BEGIN INSERT INTO audit VALUES (NEW.id);"
                        + " RETURN NEW; END; $$ LANGUAGE plpgsql");
                update(s, "CREATE TRIGGER audit_t AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION audited()");
            } else if (engine.equals("mariadb")) {
                update(s, "CREATE TRIGGER audit_t AFTER INSERT ON t FOR EACH ROW INSERT INTO audit VALUES (NEW.id)");
            } else {
                update(s, "CREATE TRIGGER audit_t AFTER INSERT ON t BEGIN INSERT INTO audit VALUES (NEW.id); END");
            }
            update(s, "INSERT INTO t (id, v) VALUES (1, 1)");
            update(s, "UPDATE t SET v = 2 WHERE id = 1");
        }
        assertEquals(List.of("1", "1"), replicas.ids("audit"));
    }
}
