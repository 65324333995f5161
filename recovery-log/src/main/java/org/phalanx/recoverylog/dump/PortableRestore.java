package org.phalanx.recoverylog.dump;

import java.io.BufferedInputStream;
import java.io.InputStream;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.ddlutils.Platform;
import org.apache.ddlutils.model.Column;
import org.apache.ddlutils.model.Database;
import org.apache.ddlutils.model.Table;
import org.apache.ddlutils.platform.SqlBuilder;
import org.phalanx.engine.Engine;
import org.phalanx.recoverylog.dump.ddl.PortableMySqlPlatform;
import org.phalanx.recoverylog.dump.ddl.ForeignKeyRules;

/**
 * One portable restore: fits the dump's model to the target, checks the target, then creates the
 * tables, loads the rows, adds the foreign keys and sets the identity counters — all of it so that
 * a failure at any step leaves the target as it was ({@link TableReplacement}).
 */
final class PortableRestore implements DataXmlReader.Sink {
    private static final int BATCH_SIZE = 1000;
    private final DumpArchive.Reader in;
    private final DumpInfo info;
    private final Database model;
    private final Connection target;
    private final Engine engine;
    private final Progress progress;
    private final Platform platform;
    private final Map<String, Table> bySafeName = new HashMap<>();
    // DdlUtils' Table hashes by its name and content, which renaming changes: key by identity
    private final Map<Table, String[]> safeColumns = new IdentityHashMap<>();
    private final Map<Table, String> safeNameOf = new IdentityHashMap<>();
    private final TableReplacement replacement;
    private Table loading;
    private PreparedStatement insert;
    private int pending;
    private long rows;
    private long tableRows;

    PortableRestore(DumpArchive.Reader in, DumpInfo info, Database model, Connection target, Engine engine,
            Progress progress) throws DumpException {
        this.in = in;
        this.info = info;
        this.model = model;
        this.target = target;
        this.engine = engine;
        this.progress = progress;
        this.platform = PortableModel.platform(engine);
        this.replacement = TableReplacement.forEngine(engine, target);
    }

    void run() throws Exception {
        Map<String, String> existing = existingTables();
        fitModel(existing);
        placeTables(existing);
        boolean autoCommit = target.getAutoCommit();
        RestoreSession session = RestoreSession.open(engine, target);
        target.setAutoCommit(false);
        try {
            session.deferForeignKeys();
            replacement.beforeCreate();
            SqlBuilder builder = platform.getSqlBuilder();
            applyForeignKeyRules((ForeignKeyRules.Aware) builder);
            for (Table t : PortableModel.parentsFirst(model)) {
                Map<String, String> options = new LinkedHashMap<>();
                String collation = engine == Engine.MARIADB ? in.info().get("collation." + safeNameOf.get(t)) : null;
                if (collation != null && Collations.isName(collation)) {
                    options.put(PortableMySqlPlatform.COLLATION, collation); // as its MariaDB source compared text
                }
                StringWriter sql = new StringWriter();
                builder.setWriter(sql);
                builder.createTable(model, t, options);
                executeScript(sql.toString());
            }
            try (InputStream data = new BufferedInputStream(in.entry(PortableBackuper.DATA), 1 << 16);
                 DataXmlReader reader = new DataXmlReader(data)) {
                reader.readAll(this);
            }
            finishTable();
            if (engine != Engine.SQLITE) { // SQLite's are inside CREATE TABLE
                StringWriter sql = new StringWriter();
                builder.setWriter(sql);
                builder.createExternalForeignKeys(model);
                executeScript(sql.toString());
            }
            resetCounters();
            target.commit();
            replacement.complete();
            progress.report(rows, info.totalRows(), "rows");
        } catch (Exception e) {
            throw failed(e);
        } finally {
            session.close();
            target.setAutoCommit(autoCommit);
        }
    }

    /** Gives each table the name it is created and loaded under (its own, or a staging name). */
    private void placeTables(Map<String, String> existing) {
        List<String> names = new ArrayList<>();
        Map<String, String> replaced = new HashMap<>();
        for (Table t : PortableModel.parentsFirst(model)) {
            names.add(t.getName());
            String actual = existing.get(t.getName().toLowerCase(Locale.ROOT));
            if (actual != null) {
                replaced.put(t.getName(), actual);
            }
        }
        Map<String, String> placed = replacement.plan(names, replaced);
        PortableModel.rename(model, placed, Map.of());
        model.initialize();
    }

    private void applyForeignKeyRules(ForeignKeyRules.Aware builder) {
        ForeignKeyRules rules = builder.foreignKeyRules();
        rules.clear();
        for (Table t : model.getTables()) {
            for (int k = 0; k < t.getForeignKeyCount(); k++) {
                String rule = in.info().get("fkrule." + safeNameOf.get(t) + "." + k);
                if (rule != null) {
                    String[] parts = rule.split("/", 2);
                    rules.put(t.getForeignKey(k), parts[0], parts.length > 1 ? parts[1] : null);
                }
            }
        }
    }

    /**
     * Real names (folded for the target), unique constraint names; on MariaDB bounded keyed text,
     * and the same integer type on both sides of a foreign key (which MariaDB requires).
     */
    private void fitModel(Map<String, String> existing) throws SQLException {
        NameMap names = NameMap.readFrom(in.info());
        boolean fold = engine == Engine.POSTGRESQL && info.sourceEngine() != Engine.POSTGRESQL;
        Map<String, String> tableNames = new HashMap<>();
        Map<String, Map<String, String>> columnNames = new HashMap<>();
        for (Table t : model.getTables()) {
            String safe = t.getName();
            bySafeName.put(safe, t);
            safeNameOf.put(t, safe);
            String[] columns = new String[t.getColumnCount()];
            Map<String, String> renamed = new HashMap<>();
            for (int i = 0; i < columns.length; i++) {
                columns[i] = t.getColumn(i).getName();
                renamed.put(columns[i], targetName(names.originalColumn(safe, columns[i]), fold));
            }
            safeColumns.put(t, columns);
            tableNames.put(safe, targetName(names.originalTable(safe), fold));
            columnNames.put(safe, renamed);
            if (engine == Engine.MARIADB) {
                for (Column c : PortableModel.keyedUnboundedText(t)) {
                    String length = in.info().get("keylength." + safe + "." + c.getName());
                    int n = length == null ? 255 : Math.max(255, Integer.parseInt(length));
                    c.setTypeCode(java.sql.Types.VARCHAR);
                    c.setSize(Integer.toString(n));
                }
            }
        }
        PortableModel.rename(model, tableNames, columnNames);
        Set<String> taken = new HashSet<>(existing.keySet());
        if (engine == Engine.MARIADB) {
            taken.addAll(foreignKeyNames()); // they are per database there, and the new keys exist beside the old
            PortableModel.sameIntegerTypeAcrossForeignKeys(model);
        }
        PortableModel.uniqueConstraintNames(model, taken);
        model.initialize();
    }

    /** The target database's foreign key names, lower case (MariaDB). */
    private Set<String> foreignKeyNames() throws SQLException {
        Set<String> names = new HashSet<>();
        try (Statement s = target.createStatement();
             ResultSet rs = s.executeQuery("SELECT CONSTRAINT_NAME FROM information_schema.REFERENTIAL_CONSTRAINTS"
                     + " WHERE CONSTRAINT_SCHEMA = DATABASE()")) {
            while (rs.next()) {
                names.add(rs.getString(1).toLowerCase(Locale.ROOT));
            }
        }
        return names;
    }

    /**
     * PostgreSQL folds unquoted names to lower case: a plain name from another engine is what
     * its SQL wrote unquoted, so it becomes lower case there; anything else keeps its case.
     */
    private static String targetName(String original, boolean fold) {
        return fold && NameMap.isPlain(original) ? original.toLowerCase(Locale.ROOT) : original;
    }

    private Map<String, String> existingTables() throws SQLException {
        Map<String, String> existing = new HashMap<>();
        for (String name : SqlIdentifiers.tables(engine, target)) {
            existing.put(name.toLowerCase(Locale.ROOT), name);
        }
        return existing;
    }

    @Override
    public String[] columns(String table) throws DumpException {
        Table t = bySafeName.get(table);
        if (t == null) {
            throw new DumpException("the data XML names table " + table + ", which the dump's schema does not have");
        }
        return safeColumns.get(t);
    }

    @Override
    public void row(String table, String[] values) throws Exception {
        Table t = bySafeName.get(table);
        if (t != loading) {
            finishTable();
            startTable(t);
        }
        Column[] columns = t.getColumns();
        tableRows++;
        for (int i = 0; i < columns.length; i++) {
            try {
                ValueText.bind(insert, i + 1, columns[i], engine, values[i]);
            } catch (IllegalArgumentException e) {
                throw new DumpException("table " + t.getName() + ", column " + columns[i].getName() + ", row "
                        + tableRows + " of the dump: " + e.getMessage());
            }
        }
        insert.addBatch();
        rows++;
        if (++pending == BATCH_SIZE) {
            insert.executeBatch();
            pending = 0;
            progress.report(rows, info.totalRows(), "rows");
        }
    }

    private void startTable(Table t) throws SQLException {
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(SqlIdentifiers.quote(engine, t.getName())).append(" (");
        StringBuilder marks = new StringBuilder();
        for (int i = 0; i < t.getColumnCount(); i++) {
            sql.append(i == 0 ? "" : ", ").append(SqlIdentifiers.quote(engine, t.getColumn(i).getName()));
            marks.append(i == 0 ? "?" : ", ?");
        }
        sql.append(") VALUES (").append(marks).append(')');
        insert = target.prepareStatement(sql.toString());
        loading = t;
        tableRows = 0;
    }

    private void finishTable() throws SQLException {
        if (insert != null) {
            if (pending > 0) {
                insert.executeBatch();
                pending = 0;
            }
            insert.close();
            insert = null;
            progress.report(rows, info.totalRows(), "rows");
        }
    }

    /** Identity counters: the next value is what the source would have generated next. */
    private void resetCounters() throws SQLException {
        for (Table t : model.getTables()) {
            String safe = safeNameOf.get(t);
            String[] safeCols = safeColumns.get(t);
            for (int i = 0; i < t.getColumnCount(); i++) {
                Column c = t.getColumn(i);
                if (!c.isAutoIncrement()) {
                    continue;
                }
                String recorded = in.info().get("counter." + safe + "." + safeCols[i]);
                // exactly the source's next value (PostgreSQL may keep it below the largest key; SQLite and
                // MariaDB move it above by themselves); without one, above the largest key
                long next = recorded != null ? Long.parseLong(recorded)
                        : Counters.maxPlusOne(target, engine, t.getName(), c.getName());
                Counters.set(target, engine, t.getName(), c.getName(), next);
            }
        }
    }

    private void execute(String sql) throws SQLException {
        try (Statement s = target.createStatement()) {
            s.execute(sql);
        }
    }

    /** Runs what a DdlUtils builder wrote: statements end with the delimiter at the end of a line. */
    private void executeScript(String script) throws SQLException {
        for (String statement : script.split(";\\s*\\R")) {
            if (!statement.isBlank()) {
                execute(statement.trim());
            }
        }
    }

    private DumpException failed(Exception cause) {
        try {
            target.rollback();
        } catch (SQLException ignored) {
            // undo() below says what state the target is in
        }
        String what = cause.getMessage();
        if (cause instanceof SQLException sql && sql.getNextException() != null) {
            what += " (" + sql.getNextException().getMessage() + ")";
        }
        return new DumpException(replacement.undo() + ": " + what, cause);
    }
}
