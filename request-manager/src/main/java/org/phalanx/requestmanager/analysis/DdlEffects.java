package org.phalanx.requestmanager.analysis;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.alter.Alter;
import net.sf.jsqlparser.statement.alter.AlterExpression;
import net.sf.jsqlparser.statement.alter.AlterOperation;
import net.sf.jsqlparser.statement.alter.RenameTableStatement;
import net.sf.jsqlparser.statement.create.index.CreateIndex;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.view.CreateView;
import net.sf.jsqlparser.statement.drop.Drop;
import net.sf.jsqlparser.statement.truncate.Truncate;
import net.sf.jsqlparser.util.TablesNamesFinder;

/** Reads a parsed DDL statement's effect on the set of tables (null when it has none we follow). */
final class DdlEffects {
    private DdlEffects() {
    }

    static DdlEffect of(Statement statement) {
        if (statement instanceof CreateTable create) {
            Set<String> sources = create.getSelect() == null ? Set.of() : tables(create.getSelect());
            return new DdlEffect(DdlEffect.Type.CREATE_TABLE, name(create.getTable()), null, sources);
        }
        if (statement instanceof CreateView view) {
            return new DdlEffect(DdlEffect.Type.CREATE_VIEW, name(view.getView()), null, tables(view.getSelect()));
        }
        if (statement instanceof Drop drop) {
            String type = drop.getType() == null ? "" : drop.getType().toUpperCase(java.util.Locale.ROOT);
            if (type.equals("TABLE") || type.equals("VIEW")) {
                return new DdlEffect(DdlEffect.Type.DROP, name(drop.getName()), null, Set.of());
            }
            return null; // DROP INDEX, SEQUENCE...: no table appears or disappears
        }
        if (statement instanceof Alter alter) {
            String table = name(alter.getTable());
            if (alter.getAlterExpressions() != null) {
                for (AlterExpression e : alter.getAlterExpressions()) {
                    if (e.getOperation() == AlterOperation.RENAME_TABLE && e.getNewTableName() != null) {
                        return new DdlEffect(DdlEffect.Type.RENAME, table, SqlAnalyzer.normalize(e.getNewTableName()), Set.of());
                    }
                }
            }
            return new DdlEffect(DdlEffect.Type.ALTER, table, null, Set.of());
        }
        if (statement instanceof RenameTableStatement rename && rename.getTableNames().size() == 1) {
            Map.Entry<Table, Table> e = rename.getTableNames().iterator().next();
            return new DdlEffect(DdlEffect.Type.RENAME, name(e.getKey()), name(e.getValue()), Set.of());
        }
        if (statement instanceof CreateIndex index && index.getTable() != null) {
            return new DdlEffect(DdlEffect.Type.ON_TABLE, name(index.getTable()), null, Set.of());
        }
        if (statement instanceof Truncate truncate && truncate.getTable() != null) {
            return new DdlEffect(DdlEffect.Type.ON_TABLE, name(truncate.getTable()), null, Set.of());
        }
        return null;
    }

    private static String name(Table t) {
        return SqlAnalyzer.normalize(t.getFullyQualifiedName());
    }

    private static Set<String> tables(Statement select) {
        Set<String> names = new TreeSet<>();
        for (String n : new TablesNamesFinder<>().getTables(select)) {
            names.add(SqlAnalyzer.normalize(n));
        }
        return Set.copyOf(names);
    }
}
