package org.phalanx.requestmanager.routing;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.phalanx.recoverylog.ControllerTables;

/** Reads the tables and views a backend holds from its JDBC metadata (not the controller's own tables). */
public final class SchemaLearner {
    private SchemaLearner() {
    }

    public static Set<String> tables(Connection c) throws SQLException {
        Set<String> names = new HashSet<>();
        try (ResultSet rs = c.getMetaData().getTables(null, null, "%", new String[] {"TABLE", "VIEW"})) {
            while (rs.next()) {
                String name = rs.getString("TABLE_NAME").toLowerCase(Locale.ROOT);
                if (!name.startsWith("sqlite_") && !ControllerTables.isControllerTable(name)) {
                    names.add(name);
                }
            }
        }
        return names;
    }
}
