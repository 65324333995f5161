package org.phalanx.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class EngineTest {

    @Test
    void urlsNameTheirEngine() {
        assertEquals(Engine.SQLITE, Engine.ofUrl("jdbc:sqlite:/tmp/a.db"));
        assertEquals(Engine.POSTGRESQL, Engine.ofUrl("jdbc:postgresql://127.0.0.1:5432/test"));
        assertEquals(Engine.MARIADB, Engine.ofUrl("jdbc:mariadb://127.0.0.1:3306/test"));
        assertEquals(Engine.MARIADB, Engine.ofUrl("jdbc:mysql://127.0.0.1:3306/test"));
        assertEquals(Engine.PHALANX, Engine.ofUrl("jdbc:phalanx://127.0.0.1:25322/vdb"));
        assertEquals(Engine.OTHER, Engine.ofUrl("jdbc:h2:mem:x"));
    }

    @Test
    void urlPrefixesIgnoreCase() {
        assertEquals(Engine.POSTGRESQL, Engine.ofUrl("JDBC:PostgreSQL://h/db"));
        assertEquals(Engine.PHALANX, Engine.ofUrl("JDBC:PHALANX://h/vdb"));
    }

    @Test
    void aWrappingDriverNamesSqliteAfterItsOwnPrefix() {
        assertEquals(Engine.SQLITE, Engine.ofUrl("jdbc:faulty:sqlite:/tmp/a.db"));
        assertEquals(Engine.PHALANX, Engine.ofUrl("jdbc:faulty:sub2:jdbc:phalanx://127.0.0.1:25322/sub2"));
    }

    @Test
    void productNamesNameTheirEngine() {
        assertEquals(Engine.SQLITE, Engine.ofProduct("SQLite"));
        assertEquals(Engine.POSTGRESQL, Engine.ofProduct("PostgreSQL"));
        assertEquals(Engine.MARIADB, Engine.ofProduct("MariaDB"));
        assertEquals(Engine.MARIADB, Engine.ofProduct("MySQL"));
        assertEquals(Engine.OTHER, Engine.ofProduct("H2"));
        assertEquals(Engine.OTHER, Engine.ofProduct(""));
        assertEquals(Engine.OTHER, Engine.ofProduct(null));
    }

    @Test
    void noProductNameIsPhalanx() {
        // a controller reports its backends' product: the SQL it speaks
        assertEquals(Engine.OTHER, Engine.ofProduct("Phalanx"));
    }

    @Test
    void aConnectionNamesItsEngineByItsProduct() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            assertEquals(Engine.SQLITE, Engine.of(c));
        }
    }

    @Test
    void lockingAndSnapshotsPerEngine() {
        assertTrue(Engine.SQLITE.locksWholeDatabase());
        assertFalse(Engine.POSTGRESQL.locksWholeDatabase());
        assertFalse(Engine.MARIADB.locksWholeDatabase());
        assertTrue(Engine.PHALANX.locksWholeDatabase());
        assertTrue(Engine.OTHER.locksWholeDatabase());
        assertFalse(Engine.PHALANX.holdsReadSnapshots());
        for (Engine e : new Engine[] {Engine.SQLITE, Engine.POSTGRESQL, Engine.MARIADB, Engine.OTHER}) {
            assertTrue(e.holdsReadSnapshots(), e.name());
        }
    }
}
