package org.phalanx.requestmanager.write;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.phalanx.engine.Engine;

/**
 * A table as the backend's catalog stores it, for metadata lookups. The analysis names tables in
 * lower case ({@code SqlAnalyzer.normalize}), but PostgreSQL keeps a quoted {@code "Orders"} as
 * written and MariaDB keeps {@code Orders} as written (table names are case-sensitive on Linux):
 * looked up by the lower-case name, such a table seemed to have no key, no counter and no varying
 * default, and its writes were taken to commute where they do not (the replicas diverged).
 *
 * @param catalog as {@code DatabaseMetaData} takes it (MariaDB's database; PostgreSQL's is the connection's)
 * @param schema  PostgreSQL's schema; null on MariaDB
 * @param name    the table's name as stored
 */
record StoredTable(String catalog, String schema, String name) {

    /**
     * The tables {@code table} (lower case, maybe qualified) may name: one, or several that differ
     * only in case (the statement's quoting would tell which; the callers are conservative), or
     * none. Unqualified on PostgreSQL: in the first schema of the connection's search path that has
     * one, as PostgreSQL resolves it.
     */
    static List<StoredTable> find(Connection c, Engine engine, String table) throws SQLException {
        int dot = table.lastIndexOf('.');
        String qualifier = dot > 0 ? table.substring(0, dot) : null;
        String name = table.substring(dot + 1);
        return switch (engine) {
            case POSTGRESQL -> postgres(c, qualifier, name);
            case MARIADB -> mariaDb(c, qualifier, name);
            default -> other(c, qualifier, name);
        };
    }

    /**
     * The one table {@code table} can be, wherever a session's search path points (an unqualified
     * name on PostgreSQL is looked for in every schema), or null when there are none or several:
     * for what a connection of no particular session must judge.
     */
    static StoredTable findAnywhere(Connection c, Engine engine, String table) throws SQLException {
        List<StoredTable> found = engine == Engine.POSTGRESQL && table.indexOf('.') < 0
                ? postgres(c, ANY_SCHEMA, table) : find(c, engine, table);
        return found.size() == 1 ? found.get(0) : null;
    }

    /** PostgreSQL's name of it in SQL: schema and name quoted, as {@code to_regclass} takes it. */
    String quoted() {
        return (schema == null ? "" : quote(schema) + ".") + quote(name);
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /** Look in every schema of the database but the system's. */
    private static final String ANY_SCHEMA = "";

    private static List<StoredTable> postgres(Connection c, String qualifier, String name) throws SQLException {
        // the schemas to look in, in search-path order (the temporary schema first where it exists)
        String sql = "SELECT s.nspname, c.relname FROM unnest(current_schemas(true)) WITH ORDINALITY AS p(nspname, i)"
                + " JOIN pg_catalog.pg_namespace s ON s.nspname = p.nspname"
                + " JOIN pg_catalog.pg_class c ON c.relnamespace = s.oid"
                + " WHERE lower(c.relname) = ? AND c.relkind IN ('r', 'p', 'f', 'v', 'm') ORDER BY p.i, c.relname";
        if (qualifier != null) {
            sql = "SELECT s.nspname, c.relname FROM pg_catalog.pg_namespace s"
                    + " JOIN pg_catalog.pg_class c ON c.relnamespace = s.oid"
                    + " WHERE lower(c.relname) = ? AND c.relkind IN ('r', 'p', 'f', 'v', 'm') AND "
                    + (qualifier.equals(ANY_SCHEMA) ? "s.nspname NOT IN ('pg_catalog', 'information_schema')"
                            + " AND s.nspname NOT LIKE 'pg\\_%'" : "lower(s.nspname) = ?")
                    + " ORDER BY s.nspname, c.relname";
        }
        List<StoredTable> found = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, name.toLowerCase(Locale.ROOT));
            if (qualifier != null && !qualifier.equals(ANY_SCHEMA)) {
                ps.setString(2, qualifier.toLowerCase(Locale.ROOT));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String schema = rs.getString(1);
                    if (qualifier == null && !found.isEmpty() && !found.get(0).schema().equals(schema)) {
                        break; // a later schema of the path: hidden behind the first one's
                    }
                    found.add(new StoredTable(c.getCatalog(), schema, rs.getString(2)));
                }
            }
        }
        return List.copyOf(found);
    }

    /** SQLite (names without case) and others, such as H2 (names in upper case unless quoted): as written, else upper case. */
    private static List<StoredTable> other(Connection c, String qualifier, String name) throws SQLException {
        String catalog = qualifier == null ? c.getCatalog() : qualifier;
        for (String candidate : List.of(name, name.toUpperCase(Locale.ROOT))) {
            try (ResultSet rs = c.getMetaData().getTables(catalog, null, candidate, null)) {
                if (rs.next()) {
                    return List.of(new StoredTable(catalog, null, candidate));
                }
            }
        }
        return List.of(new StoredTable(catalog, null, name));
    }

    private static List<StoredTable> mariaDb(Connection c, String qualifier, String name) throws SQLException {
        String sql = "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE LOWER(TABLE_NAME) = ? AND "
                + (qualifier == null ? "TABLE_SCHEMA = DATABASE()" : "LOWER(TABLE_SCHEMA) = ?")
                + " ORDER BY TABLE_SCHEMA, TABLE_NAME";
        List<StoredTable> found = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, name.toLowerCase(Locale.ROOT));
            if (qualifier != null) {
                ps.setString(2, qualifier.toLowerCase(Locale.ROOT));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(new StoredTable(rs.getString(1), null, rs.getString(2)));
                }
            }
        }
        return List.copyOf(found);
    }
}
