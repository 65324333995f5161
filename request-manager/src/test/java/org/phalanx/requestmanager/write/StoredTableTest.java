package org.phalanx.requestmanager.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.phalanx.engine.Engine;
import org.phalanx.testkit.db.TestDatabases;

/**
 * Tables whose stored names are not the analysis' lower-case ones (PostgreSQL's quoted
 * {@code "Ord"}, MariaDB's {@code Ord}, a table of another schema): their counters, keys and
 * varying defaults are found, so their writes are not taken for commuting ones (two clients'
 * inserts got different ids on different replicas; a default's clock was read on each replica).
 */
class StoredTableTest {
    private static final String DB = "stored_table";

    @Test
    void postgresTablesAreFoundAsStored() throws Exception {
        String url = TestDatabases.createPostgres(DB);
        try (Connection c = TestDatabases.connect(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE \"Ord\" (id SERIAL PRIMARY KEY, who INTEGER)");
            s.execute("CREATE TABLE \"Evt\" (id INTEGER PRIMARY KEY, ts TIMESTAMPTZ DEFAULT clock_timestamp(),"
                    + " r FLOAT8 DEFAULT random())");
            s.execute("CREATE SCHEMA sa");
            s.execute("CREATE TABLE sa.q (id SERIAL PRIMARY KEY, who INTEGER)");
            s.execute("CREATE TABLE \"Dup\" (id INTEGER PRIMARY KEY)");
            s.execute("CREATE TABLE dup (id SERIAL PRIMARY KEY)");

            TableTraits ord = TableTraits.read(c, Engine.POSTGRESQL, "ord");
            assertEquals(List.of("id"), ord.key());
            assertFalse(ord.insertsCommute(), "its ids come from a sequence");
            assertFalse(TableTraits.read(c, Engine.POSTGRESQL, "sa.q").insertsCommute(), "a table of another schema");
            assertEquals(java.util.Set.of("ts", "r"), DefaultValues.varyingDefaults(c, Engine.POSTGRESQL, "evt").keySet());
            assertEquals(TableTraits.UNKNOWN, TableTraits.read(c, Engine.POSTGRESQL, "dup"),
                    "which of \"Dup\" and dup a statement means depends on its quoting");

            s.execute("SET search_path = sa, public");
            assertEquals(List.of(new StoredTable(c.getCatalog(), "sa", "q")), StoredTable.find(c, Engine.POSTGRESQL, "q"),
                    "found in the search path, as PostgreSQL resolves it");
        } finally {
            TestDatabases.dropPostgres(DB);
        }
    }

    @Test
    void mariaDbTablesAreFoundAsStored() throws Exception {
        String url = TestDatabases.createMariaDb(DB);
        try (Connection c = TestDatabases.connect(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE Ord (id INTEGER AUTO_INCREMENT PRIMARY KEY, who INTEGER)");
            s.execute("CREATE TABLE Evt (id INTEGER PRIMARY KEY, ts DATETIME(6) DEFAULT CURRENT_TIMESTAMP(6))");
            s.execute("CREATE TABLE Dup (id INTEGER PRIMARY KEY, ts DATETIME(6) DEFAULT CURRENT_TIMESTAMP(6))");
            s.execute("CREATE TABLE dup (id INTEGER PRIMARY KEY)");

            TableTraits ord = TableTraits.read(c, Engine.MARIADB, "ord");
            assertEquals(List.of("id"), ord.key());
            assertFalse(ord.insertsCommute(), "its ids come from AUTO_INCREMENT");
            assertEquals(java.util.Set.of("ts"), DefaultValues.varyingDefaults(c, Engine.MARIADB, "evt").keySet());
            SQLFeatureNotSupportedException ambiguous = assertThrows(SQLFeatureNotSupportedException.class,
                    () -> DefaultValues.varyingDefaults(c, Engine.MARIADB, "dup"));
            assertTrue(ambiguous.getMessage().contains("differ only in case"), ambiguous.getMessage());
        } finally {
            TestDatabases.dropMariaDb(DB);
        }
    }
}
