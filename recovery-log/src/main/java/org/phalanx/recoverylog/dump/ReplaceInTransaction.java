package org.phalanx.recoverylog.dump;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.phalanx.engine.Engine;

/**
 * SQLite and PostgreSQL: the target's tables are dropped inside the restore's transaction, so a
 * rollback brings them back with their rows. On PostgreSQL the drop cascades to foreign keys of
 * other tables that reference them (the new tables are other objects).
 */
final class ReplaceInTransaction implements TableReplacement {
    private final Engine engine;
    private final Connection target;
    private final List<String> replaced = new ArrayList<>();

    ReplaceInTransaction(Engine engine, Connection target) {
        this.engine = engine;
        this.target = target;
    }

    @Override
    public Map<String, String> plan(Iterable<String> tables, Map<String, String> existing) {
        Map<String, String> names = new LinkedHashMap<>();
        for (String t : tables) {
            names.put(t, t);
            if (existing.containsKey(t)) {
                replaced.add(existing.get(t));
            }
        }
        return names;
    }

    @Override
    public void beforeCreate() throws SQLException {
        try (Statement s = target.createStatement()) {
            for (String table : replaced) {
                s.execute("DROP TABLE " + SqlIdentifiers.quote(engine, table) + (engine == Engine.POSTGRESQL ? " CASCADE" : ""));
            }
        }
    }

    @Override
    public void complete() {
        // the commit did it
    }

    @Override
    public String undo() {
        return "restore failed and was rolled back, the target is as it was";
    }
}
