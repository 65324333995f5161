package org.phalanx.recoverylog.dump;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.phalanx.engine.Engine;
import org.phalanx.recoverylog.ControllerTables;

/** Quoting names for an engine, and finding the tables of the connection's current database/schema. */
final class SqlIdentifiers {
    private SqlIdentifiers() {
    }

    static String quote(Engine engine, String name) {
        if (engine == Engine.MARIADB) {
            return "`" + name.replace("`", "``") + "`";
        }
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** The catalog to pass to {@link DatabaseMetaData} methods for the connection's current database. */
    static String catalog(Engine engine, Connection c) throws SQLException {
        return engine == Engine.MARIADB ? c.getCatalog() : null;
    }

    /** The schema pattern for the connection's current schema (PostgreSQL), or null. */
    static String schema(Engine engine, Connection c) throws SQLException {
        if (engine != Engine.POSTGRESQL) {
            return null;
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT current_schema()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** The base tables of the current database/schema, without engine-internal ones and the controller's own. */
    static List<String> tables(Engine engine, Connection c) throws SQLException {
        List<String> names = new ArrayList<>();
        try (ResultSet rs = c.getMetaData().getTables(catalog(engine, c), schema(engine, c), "%",
                new String[] {"TABLE"})) {
            while (rs.next()) {
                String name = rs.getString("TABLE_NAME");
                if (engine == Engine.SQLITE && name.toLowerCase(java.util.Locale.ROOT).startsWith("sqlite_")
                        || ControllerTables.isLeftOutOfDumps(name)) {
                    continue;
                }
                names.add(name);
            }
        }
        return names;
    }

    static long countRows(Engine engine, Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + quote(engine, table))) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
