package org.phalanx.requestmanager.hetero;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.phalanx.engine.Engine;

/** The per-engine forms of portable DDL (executed on the real engines by the heterogeneous ITs). */
class PortableDdlTest {

    @Test
    void anIdentityKeyBecomesEachEnginesAutoIncrementKey() {
        Map<Engine, List<String>> t = PortableDdl.translate("CREATE TABLE events (id INTEGER GENERATED ALWAYS AS IDENTITY"
                + " PRIMARY KEY, flag BOOLEAN DEFAULT TRUE, at TIMESTAMP, t TIME, amount DECIMAL(10,2), body TEXT, data BLOB)");
        assertNotNull(t);
        String sqlite = t.get(Engine.SQLITE).get(0);
        String pg = t.get(Engine.POSTGRESQL).get(0);
        String maria = t.get(Engine.MARIADB).get(0);
        assertTrue(sqlite.contains("id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT"), sqlite);
        assertTrue(sqlite.contains("flag BOOLEAN DEFAULT 1"), sqlite);
        assertTrue(pg.contains("id SERIAL NOT NULL"), pg);
        assertTrue(pg.contains("flag BOOLEAN DEFAULT true") && pg.contains("data BYTEA"), pg);
        assertTrue(maria.contains("id INTEGER NOT NULL AUTO_INCREMENT"), maria);
        assertTrue(maria.contains("flag TINYINT(1)") && maria.contains("at DATETIME(6)") && maria.contains("t TIME(6)")
                && maria.contains("body LONGTEXT") && maria.contains("LONGBLOB"), maria);
    }

    @Test
    void otherSpellingsOfTheKeyAndTableConstraints() {
        for (String key : List.of("id SERIAL PRIMARY KEY", "id INTEGER PRIMARY KEY AUTOINCREMENT",
                "id INTEGER AUTO_INCREMENT PRIMARY KEY", "id BIGSERIAL, PRIMARY KEY (id)")) {
            Map<Engine, List<String>> t = PortableDdl.translate("CREATE TABLE k (" + key + ", name VARCHAR(20) UNIQUE)");
            assertNotNull(t, key);
            assertEquals(2, t.get(Engine.POSTGRESQL).size(), "table and unique index: " + t);
            assertTrue(t.get(Engine.MARIADB).get(0).contains("AUTO_INCREMENT"), key);
            assertEquals("CREATE UNIQUE INDEX k_name_key ON k (name)", t.get(Engine.SQLITE).get(1));
        }
    }

    @Test
    void keyedTextIsBoundedOnMariaDbOnly() {
        Map<Engine, List<String>> t = PortableDdl.translate("CREATE TABLE IF NOT EXISTS tr (id TEXT PRIMARY KEY, v TEXT)");
        assertTrue(t.get(Engine.MARIADB).get(0).startsWith("CREATE TABLE IF NOT EXISTS tr"));
        assertTrue(t.get(Engine.MARIADB).get(0).contains("id VARCHAR(768)"), t.get(Engine.MARIADB).get(0));
        assertTrue(t.get(Engine.POSTGRESQL).get(0).contains("id TEXT"), t.get(Engine.POSTGRESQL).get(0));
    }

    @Test
    void createIndexIsWrittenForEveryEngine() {
        Map<Engine, List<String>> t = PortableDdl.translate("CREATE UNIQUE INDEX ix ON accounts (owner, name)");
        assertEquals(List.of("CREATE UNIQUE INDEX ix ON accounts (owner, name)"), t.get(Engine.MARIADB));
    }

    @Test
    void whatIsNotUnderstoodIsLeftAsWritten() {
        assertNull(PortableDdl.translate("CREATE TABLE c (id INTEGER REFERENCES p(id))"), "foreign key");
        assertNull(PortableDdl.translate("CREATE TABLE c (id INTEGER CHECK (id > 0))"), "check");
        assertNull(PortableDdl.translate("CREATE TABLE c (id INTEGER) ENGINE=InnoDB"), "table options");
        assertNull(PortableDdl.translate("CREATE TABLE c (g GEOMETRY)"), "unknown type");
        assertNull(PortableDdl.translate("CREATE TABLE c (x INTEGER DEFAULT nextval('s'))"), "expression default");
        assertNull(PortableDdl.translate("CREATE TABLE c (id INTEGER, n INTEGER AUTO_INCREMENT)"), "key not the primary key");
        assertNull(PortableDdl.translate("CREATE TABLE c AS SELECT * FROM d"), "as select");
        assertNull(PortableDdl.translate("DROP TABLE c"), "not a create");
    }
}
