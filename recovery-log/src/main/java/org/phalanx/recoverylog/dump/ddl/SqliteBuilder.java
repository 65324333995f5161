package org.phalanx.recoverylog.dump.ddl;

import java.io.IOException;
import org.apache.ddlutils.Platform;
import org.apache.ddlutils.model.Column;
import org.apache.ddlutils.model.ForeignKey;
import org.apache.ddlutils.model.Table;
import org.apache.ddlutils.platform.SqlBuilder;

/**
 * SQL for SQLite: foreign keys inside CREATE TABLE (SQLite has no ALTER TABLE ADD CONSTRAINT),
 * an identity column as {@code INTEGER PRIMARY KEY AUTOINCREMENT}, a single-column integer
 * primary key declared {@code INTEGER} so it stays the rowid (its real type in a
 * {@link RowidTypeNote}), {@code DROP TABLE IF EXISTS}, and
 * {@code last_insert_rowid()}. DdlUtils' alter (rebuild through a copy) is not used by Phalanx:
 * it would lose foreign keys on SQLite.
 */
public class SqliteBuilder extends SqlBuilder implements ForeignKeyRules.Aware {
    private final ForeignKeyRules rules = new ForeignKeyRules();

    @Override
    public ForeignKeyRules foreignKeyRules() {
        return rules;
    }

    @Override
    protected void writeForeignReferences(ForeignKey key) throws IOException {
        super.writeForeignReferences(key);
        rules.referencesWritten(key);
    }

    @Override
    protected void print(String text) throws IOException {
        super.print(rules.beforePrint(text));
    }


    public SqliteBuilder(Platform platform) {
        super(platform);
        addEscapedCharSequence("'", "''");
    }

    private static Column autoIncrementKey(Table table) {
        Column[] pk = table.getPrimaryKeyColumns();
        return pk.length == 1 && pk[0].isAutoIncrement() ? pk[0] : null;
    }

    private static boolean isRowidKey(Table table, Column column) {
        Column[] pk = table.getPrimaryKeyColumns();
        return pk.length == 1 && pk[0] == column && SqliteModelReader.isInteger(column.getTypeCode());
    }

    @Override
    protected void writeColumn(Table table, Column column) throws IOException {
        if (isRowidKey(table, column)) {
            // exactly "INTEGER" makes the key the rowid (BIGINT PRIMARY KEY would not be); the note keeps its type
            printIdentifier(getColumnName(column));
            print(" INTEGER" + RowidTypeNote.of(column.getTypeCode()) + " NOT NULL");
            if (column.isAutoIncrement()) {
                print(" PRIMARY KEY AUTOINCREMENT");
            }
            return;
        }
        super.writeColumn(table, column);
    }

    @Override
    protected void writeEmbeddedPrimaryKeysStmt(Table table) throws IOException {
        if (autoIncrementKey(table) == null) { // AUTOINCREMENT is declared on the column itself
            super.writeEmbeddedPrimaryKeysStmt(table);
        }
    }

    @Override
    protected void writeColumnAutoIncrementStmt(Table table, Column column) throws IOException {
        // only the single integer primary key can autoincrement in SQLite: handled in writeColumn
    }

    @Override
    protected void writeColumnDefaultValueStmt(Table table, Column column) throws IOException {
        String sql = Builders.defaultSql(column, Builders.SQLITE);
        if (sql != null) {
            print(" DEFAULT " + sql);
        }
    }

    @Override
    public void dropTable(Table table) throws IOException {
        print("DROP TABLE IF EXISTS ");
        printIdentifier(getTableName(table));
        printEndOfStatement();
    }

    @Override
    public String getSelectLastIdentityValues(Table table) {
        return "SELECT last_insert_rowid()";
    }
}
