package org.phalanx.recoverylog.dump;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.Engine;
import org.phalanx.recoverylog.ControllerTables;

/**
 * MariaDB, whose DDL commits at once: the dump's tables are created, filled, given their keys and
 * counters under staging names ({@link ControllerTables#RESTORE_PREFIX}{@code new_<n>}), and the
 * target's own tables are not touched until all of that has succeeded. Then one {@code RENAME
 * TABLE} — atomic in MariaDB — moves the old tables aside and the new ones into their place, and
 * the old ones are dropped. Foreign keys among the new tables follow the rename. Foreign keys of
 * other tables that referenced a replaced table follow it aside too; they are dropped with it, as
 * PostgreSQL's {@code DROP ... CASCADE} does. Tables left under the prefix by a restore that was
 * killed are the controller's, hidden from the application, and removed by the next restore.
 */
final class StagedReplacement implements TableReplacement {
    private static final Logger LOG = LogManager.getLogger(StagedReplacement.class);
    private final Connection target;
    /** real name -> staging name */
    private final Map<String, String> staged = new LinkedHashMap<>();
    /** the target's table -> the name it is moved aside to */
    private final Map<String, String> aside = new LinkedHashMap<>();

    StagedReplacement(Connection target) {
        this.target = target;
    }

    @Override
    public Map<String, String> plan(Iterable<String> tables, Map<String, String> existing) {
        int n = 0;
        for (String t : tables) {
            n++;
            staged.put(t, ControllerTables.RESTORE_PREFIX + "new_" + n);
            if (existing.containsKey(t)) {
                aside.put(existing.get(t), ControllerTables.RESTORE_PREFIX + "old_" + n);
            }
        }
        return staged;
    }

    @Override
    public void beforeCreate() throws SQLException {
        List<String> leftovers = new ArrayList<>();
        try (PreparedStatement s = target.prepareStatement("SELECT TABLE_NAME FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE ?")) {
            s.setString(1, ControllerTables.RESTORE_PREFIX.replace("_", "\\_") + "%");
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    leftovers.add(rs.getString(1));
                }
            }
        }
        if (!leftovers.isEmpty()) {
            LOG.info("Dropping tables left by an interrupted restore: {}", leftovers);
            drop(leftovers);
        }
    }

    @Override
    public void complete() throws SQLException {
        List<String> pairs = new ArrayList<>();
        aside.forEach((table, away) -> pairs.add(quote(table) + " TO " + quote(away)));
        staged.forEach((real, staging) -> pairs.add(quote(staging) + " TO " + quote(real)));
        execute("RENAME TABLE " + String.join(", ", pairs)); // all or nothing: until here the target is as it was
        if (aside.isEmpty()) {
            return;
        }
        // from here the restore has succeeded: what fails only leaves garbage the next restore removes
        try {
            dropForeignKeysOfOthers();
            drop(new ArrayList<>(aside.values()));
        } catch (SQLException e) {
            LOG.warn("Restore complete, but the replaced tables {} could not be dropped (the next restore drops them): {}",
                    aside.values(), e.getMessage());
        }
    }

    /** Keys of tables outside the dump that followed a replaced table aside (the dump's own old tables go with it). */
    private void dropForeignKeysOfOthers() throws SQLException {
        String in = String.join(", ", aside.values().stream().map(t -> "'" + t + "'").toList());
        List<String[]> keys = new ArrayList<>();
        try (Statement s = target.createStatement();
             ResultSet rs = s.executeQuery("SELECT TABLE_NAME, CONSTRAINT_NAME, REFERENCED_TABLE_NAME"
                     + " FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE()"
                     + " AND REFERENCED_TABLE_NAME IN (" + in + ") AND TABLE_NAME NOT IN (" + in + ")")) {
            while (rs.next()) {
                keys.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3)});
            }
        }
        for (String[] k : keys) {
            LOG.warn("Restore: foreign key {} of {} referenced a replaced table: dropped, as PostgreSQL's CASCADE would",
                    k[1], k[0]);
            execute("ALTER TABLE " + quote(k[0]) + " DROP FOREIGN KEY " + quote(k[1]));
        }
    }

    @Override
    public String undo() {
        List<String> left = new ArrayList<>();
        for (String staging : staged.values()) {
            try {
                execute("DROP TABLE IF EXISTS " + quote(staging));
            } catch (SQLException e) {
                left.add(staging);
            }
        }
        return "restore failed and was undone, the target is as it was (MariaDB cannot roll back tables: the dump"
                + " was loaded into tables of its own, dropped again" + (left.isEmpty() ? ""
                : " except " + String.join(", ", left) + ", which the next restore removes") + ")";
    }

    private void drop(List<String> tables) throws SQLException {
        execute("DROP TABLE IF EXISTS " + String.join(", ", tables.stream().map(StagedReplacement::quote).toList()));
    }

    private void execute(String sql) throws SQLException {
        try (Statement s = target.createStatement()) {
            s.execute(sql);
        }
    }

    private static String quote(String table) {
        return SqlIdentifiers.quote(Engine.MARIADB, table);
    }
}
