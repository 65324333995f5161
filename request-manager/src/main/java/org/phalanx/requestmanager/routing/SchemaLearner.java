package org.phalanx.requestmanager.routing;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.TreeSet;
import java.util.Locale;
import java.util.Set;
import org.phalanx.recoverylog.ControllerTables;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.config.DeclaredTable;

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

    /**
     * Learns a backend's tables into the schema view; each table its configuration declares but
     * it lacks is added to {@code contradictions}.
     */
    public static void learn(Backend b, SchemaView schema, List<String> contradictions) throws SQLException {
        Set<String> tables;
        try (Connection c = b.connection(b.config().credentials())) {
            tables = tables(c);
        }
        for (DeclaredTable declared : b.config().tables()) {
            if (!tables.contains(declared.name())) {
                contradictions.add((declared.location() == null ? "" : declared.location() + ": ") + "backend "
                        + b.name() + " has no table " + declared.name() + " (it holds: "
                        + (tables.isEmpty() ? "no tables" : String.join(", ", new TreeSet<>(tables))) + ")");
            }
        }
        schema.learn(b, tables);
    }

    /** The tables a backend's configuration declares (what is known of a backend that cannot be reached). */
    public static Set<String> declaredTables(Backend b) {
        Set<String> names = new HashSet<>();
        for (DeclaredTable t : b.config().tables()) {
            names.add(t.name());
        }
        return names;
    }
}
