package org.phalanx.requestmanager.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.analysis.InsertText;

class DefaultValuesTest {
    @TempDir
    Path dir;

    @Test
    void anInsertGetsColumnsAndAValuePerRow() {
        InsertText insert = InsertText.of(
                "INSERT INTO \"public\".\"h\" (\"rank\", \"note\") VALUES (?, 'a(b)'), (?, ')') RETURNING rank");
        assertEquals(Set.of("rank", "note"), insert.columns());
        assertEquals("INSERT INTO \"public\".\"h\" (\"rank\", \"note\", at) VALUES (?, 'a(b)', 'T'), (?, ')', 'T') RETURNING rank",
                insert.with(List.of("at"), List.of("'T'")));
        assertNull(InsertText.of("INSERT INTO h SELECT * FROM g"), "no column list");
        assertNull(InsertText.of("INSERT INTO h (a) SELECT a FROM g"), "not VALUES");
    }

    /** The engines' other INSERT forms are completed too, or known for what they leave to defaults. */
    @Test
    void insertsWithModifiersAreReadAndTheSetFormIsKnown() {
        assertEquals(Set.of("id"), InsertText.of("INSERT IGNORE INTO h (id) VALUES (5)").columns());
        assertEquals(Set.of("id"), InsertText.of("insert low_priority ignore into h (id) values (5)").columns());
        assertEquals(Set.of("id"), InsertText.of("INSERT OR REPLACE INTO h (id) VALUES (1)").columns());
        assertEquals(Set.of("id"), InsertText.of("REPLACE h (id) VALUES (1)").columns());
        assertEquals("id = 1, note = 'x'", InsertText.setList("INSERT IGNORE INTO h SET id = 1, note = 'x'"));
        assertNull(InsertText.setList("INSERT INTO h (id) VALUES (1)"));
        assertEquals(2, InsertText.firstRowWidth("INSERT OR IGNORE INTO h VALUES (1, 2)"));
        assertEquals("h", InsertText.table("INSERT OR IGNORE INTO \"H\"(id) VALUES (1)"));
    }

    @Test
    void theDefaultsThatVaryAreFoundInTheMetadata() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("d.db")); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE h (id INTEGER PRIMARY KEY, at TEXT DEFAULT CURRENT_TIMESTAMP,"
                    + " stamp TEXT DEFAULT (strftime('%s', 'now')), n INTEGER DEFAULT 0, label TEXT DEFAULT 'x')");
            Map<String, String> varying = DefaultValues.varyingDefaults(c, Engine.SQLITE, "h");
            assertEquals(Set.of("at", "stamp"), varying.keySet());
        }
    }
}
