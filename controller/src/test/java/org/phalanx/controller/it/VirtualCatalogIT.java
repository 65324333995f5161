package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * The virtual database is the catalog its clients see (issue 18): over two backends whose own
 * databases have different names (PostgreSQL and MariaDB) or none (SQLite), {@code getCatalog()}
 * and every catalog column of the metadata name the virtual database, whichever backend answers;
 * that name passed back finds the tables, and so does a backend's own database name (what
 * {@code DATABASE()}/{@code current_database()} report, which Flyway passes); another catalog
 * finds nothing; {@code getCatalogs()} lists the virtual database alone.
 */
class VirtualCatalogIT extends WithEngineCluster {
    @ParameterizedTest
    @EnumSource(Kind.class)
    void metadataReportsAndAcceptsTheVirtualDatabaseAsCatalog(Kind kind) throws Exception {
        cluster = new EngineCluster(dir, kind, 2, "phalanx_catalog", "");
        try (Connection c = cluster.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20))");
            s.executeUpdate("CREATE TABLE part (id INTEGER PRIMARY KEY, item_id INTEGER REFERENCES item (id))");
            assertEquals("vdb", c.getCatalog());
            DatabaseMetaData md = c.getMetaData();
            for (int i = 0; i < 6; i++) { // the balancer spreads metadata calls over the backends
                assertEquals(List.of("vdb"), column(md.getTables(null, null, "item", null), "TABLE_CAT"));
            }
            String catalog = c.getCatalog();
            assertEquals(List.of("vdb", "vdb"), column(md.getColumns(catalog, null, "item", "%"), "TABLE_CAT"),
                    "the catalog reported, passed back, finds the table's columns");
            assertEquals(List.of("vdb"), column(md.getPrimaryKeys(catalog, null, "item"), "TABLE_CAT"));
            try (ResultSet fk = md.getImportedKeys(catalog, null, "part")) {
                assertEquals(true, fk.next(), "part's foreign key");
                assertEquals("vdb", fk.getString("PKTABLE_CAT"));
                assertEquals("vdb", fk.getString("FKTABLE_CAT"));
                assertFalse(fk.next());
            }
            if (kind != Kind.SQLITE) {
                // SQL still names the answering backend's database; that name passed back means this one too
                String own = own(s, kind);
                for (int i = 0; i < 4; i++) {
                    assertEquals(List.of("vdb"), column(md.getTables(own, null, "item", null), "TABLE_CAT"), own);
                }
            }
            if (kind == Kind.MARIADB) {
                // USE names this database (its name, or what DATABASE() reports) or is refused: the
                // virtual database is one database, and no pooled connection may be left in another
                s.execute("USE vdb");
                s.execute("USE `" + own(s, kind) + "`");
                java.sql.SQLException other = org.junit.jupiter.api.Assertions.assertThrows(java.sql.SQLException.class,
                        () -> s.execute("USE mysql"));
                assertEquals("3D000", other.getSQLState(), other.getMessage());
                for (int i = 0; i < 6; i++) {
                    assertEquals(List.of("vdb"), column(md.getTables(null, null, "item", null), "TABLE_CAT"));
                    try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM item")) {
                        rs.next();
                    }
                }
            }
            assertEquals(List.of(), column(md.getTables("elsewhere", null, "%", null), "TABLE_NAME"),
                    "another catalog holds nothing of this virtual database");
            assertEquals(List.of("vdb"), column(md.getCatalogs(), "TABLE_CAT"));
            c.setCatalog("vdb"); // accepted, nothing to switch to
            assertEquals("vdb", c.getCatalog());

            // the current schema and how identifiers' case is kept, as the engine's own driver says: tools
            // build the names they create and look up from them (Liquibase, for one)
            try (Connection direct = cluster.direct("b1")) {
                assertEquals(direct.getSchema(), c.getSchema(), "the current schema");
                DatabaseMetaData own = direct.getMetaData();
                assertEquals(List.of(own.supportsMixedCaseIdentifiers(), own.storesLowerCaseIdentifiers(),
                                own.storesMixedCaseIdentifiers(), own.supportsMixedCaseQuotedIdentifiers(),
                                own.storesMixedCaseQuotedIdentifiers(), own.getIdentifierQuoteString()),
                        List.of(md.supportsMixedCaseIdentifiers(), md.storesLowerCaseIdentifiers(),
                                md.storesMixedCaseIdentifiers(), md.supportsMixedCaseQuotedIdentifiers(),
                                md.storesMixedCaseQuotedIdentifiers(), md.getIdentifierQuoteString()),
                        "identifier case and quote");
            }
            // prepareCall with plain SQL, as Liquibase asks PostgreSQL for its current schema; no procedure call
            try (CallableStatement call = c.prepareCall("SELECT COUNT(*) FROM item WHERE id > ?")) {
                call.setInt(1, 0);
                try (ResultSet rs = call.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(0, rs.getInt(1));
                }
                SQLException out = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                        () -> call.registerOutParameter(1, java.sql.Types.INTEGER));
                assertEquals("0A000", out.getSQLState());
            }
            assertEquals("0A000", org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> c.prepareCall("{call p()}")).getSQLState());
            // a name qualified by the virtual database, as tools write it with that catalog, reaches the
            // backends' own database (SQLite: its only one); PostgreSQL reads it as a schema, as one would
            if (kind != Kind.POSTGRESQL) {
                s.executeUpdate("INSERT INTO vdb.item (id, name) VALUES (100, 'qualified')");
                try (ResultSet rs = s.executeQuery("SELECT name FROM `vdb`.item WHERE id = 100".replace('`',
                        kind == Kind.SQLITE ? '"' : '`'))) {
                    assertTrue(rs.next());
                    assertEquals("qualified", rs.getString(1));
                }
            }
        }
    }

    /** The answering backend's own database, as SQL reports it. */
    private static String own(Statement s, Kind kind) throws SQLException {
        try (ResultSet rs = s.executeQuery(kind == Kind.POSTGRESQL ? "SELECT current_database()" : "SELECT DATABASE()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static List<String> column(ResultSet rs, String label) throws SQLException {
        try (rs) {
            List<String> values = new ArrayList<>();
            while (rs.next()) {
                values.add(rs.getString(label));
            }
            return values;
        }
    }
}
