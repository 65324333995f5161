package org.phalanx.recoverylog.dump;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.ddlutils.Platform;
import org.apache.ddlutils.io.DatabaseIO;
import org.apache.ddlutils.model.Column;
import org.apache.ddlutils.model.Database;
import org.apache.ddlutils.model.Table;
import org.apache.ddlutils.platform.SqlBuilder;
import org.phalanx.engine.Engine;
import org.phalanx.recoverylog.dump.ddl.ForeignKeyRules;

/**
 * Dumps a database as Apache DdlUtils XML — {@code schema.xml} (DdlUtils' database model) and
 * {@code data.xml} (DdlUtils' data format) in a zip — that restores onto SQLite, PostgreSQL or
 * MariaDB, whichever the source was. Both directions stream: memory use does not grow with the
 * table sizes.
 *
 * <p>What it takes care of, beyond DdlUtils: the SQLite platform DdlUtils lacks
 * ({@link org.phalanx.recoverylog.dump.ddl.SqlitePlatform}); names that would break the XML
 * ({@link NameMap}); exact values ({@link ValueText}); identity values kept as they were (never
 * renumbered) and identity counters carried over ({@code counter.*} in the info: the next value
 * the source would have generated, set on the target after loading); unbounded text columns used
 * in keys measured so MariaDB can give them a bounded VARCHAR; loading in batches with
 * auto-commit off; foreign keys created after the data (PostgreSQL, MariaDB) or deferred
 * (SQLite), so table order and cycles do not matter.
 */
public final class PortableBackuper implements Backuper {
    public static final String FORMAT = "portable";
    static final String SCHEMA = "schema.xml";
    static final String DATA = "data.xml";
    private static final int FETCH_SIZE = 1000;
    private static final int BATCH_SIZE = 1000;

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public boolean supports(Engine engine) {
        return engine == Engine.SQLITE || engine == Engine.POSTGRESQL || engine == Engine.MARIADB;
    }

    // ------------------------------------------------------------------ backup

    @Override
    public DumpInfo backup(Connection source, Path dumpFile, String checkpointName, long checkpointPosition,
                           Progress progress) throws DumpException {
        Objects.requireNonNull(checkpointName, "checkpointName");
        Progress report = progress == null ? Progress.NONE : progress;
        try (DumpArchive.Writer out = new DumpArchive.Writer(dumpFile)) {
            Engine engine = Engine.of(source);
            if (!supports(engine)) {
                throw new DumpException("the portable backuper cannot read " + source.getMetaData().getDatabaseProductName());
            }
            PortableModel.Source read = PortableModel.read(source, engine);
            Database model = read.db();
            List<Table> tables = PortableModel.parentsFirst(model);

            Map<String, String> info = new LinkedHashMap<>();
            info.put("format", FORMAT);
            info.put("checkpoint.name", checkpointName);
            info.put("checkpoint.position", Long.toString(checkpointPosition));
            info.put("source.engine", engine.name());
            info.put("source.product", source.getMetaData().getDatabaseProductName() + " "
                    + source.getMetaData().getDatabaseProductVersion());
            info.put("created", Instant.now().toString());
            info.put("tables", Integer.toString(tables.size()));

            // what the SELECTs need, before the model gets the dump's safe names
            Map<String, String> tableSafe = NameMap.safeNames(tables.stream().map(Table::getName).toList(), "table_");
            NameMap names = new NameMap();
            Map<String, Map<String, String>> columnSafe = new HashMap<>();
            List<TableSource> sources = new ArrayList<>();
            long total = 0;
            int n = 0;
            for (Table t : tables) {
                String safe = tableSafe.get(t.getName());
                names.table(safe, t.getName());
                List<String> columnNames = new ArrayList<>();
                for (Column c : t.getColumns()) {
                    columnNames.add(c.getName());
                }
                Map<String, String> cs = NameMap.safeNames(columnNames, "column_");
                cs.forEach((original, s) -> names.column(safe, s, original));
                columnSafe.put(t.getName(), cs);
                long rows = SqlIdentifiers.countRows(engine, source, t.getName());
                total += rows;
                n++;
                info.put("table." + n + ".name", t.getName());
                info.put("table." + n + ".rows", Long.toString(rows));
                sources.add(new TableSource(t, t.getName(), columnNames.toArray(String[]::new), safe,
                        columnNames.stream().map(cs::get).toArray(String[]::new)));
                for (int k = 0; k < t.getForeignKeyCount(); k++) {
                    String[] rule = read.rules().get(t.getForeignKey(k));
                    if (rule != null) {
                        info.put("fkrule." + safe + "." + k, rule[0] + "/" + rule[1]);
                    }
                }
                for (Column c : t.getAutoIncrementColumns()) {
                    Long next = Counters.next(source, engine, t.getName(), c.getName());
                    if (next != null) {
                        info.put("counter." + safe + "." + cs.get(c.getName()), Long.toString(next));
                    }
                }
            }
            names.writeTo(info);
            PortableModel.rename(model, tableSafe, columnSafe);

            try (OutputStream schema = new BufferedOutputStream(out.entry(SCHEMA, true), 1 << 16);
                 Writer w = new OutputStreamWriter(schema, StandardCharsets.UTF_8)) {
                new DatabaseIO().write(model, w);
            }
            long done = 0;
            // the XML writer emits many tiny writes: each would be a deflate call without a buffer
            try (OutputStream data = new BufferedOutputStream(out.entry(DATA, true), 1 << 16)) {
                DataXmlWriter xml = new DataXmlWriter(data);
                for (TableSource t : sources) {
                    done = dumpTable(source, engine, t, xml, done, total, report, info);
                }
                xml.close();
            }
            if (done != total) {
                throw new DumpException("the source changed while it was dumped (" + total + " rows counted, " + done
                        + " read): the connection must hold a consistent snapshot");
            }
            long size = out.commit(info);
            report.report(total, total, "rows");
            try (DumpArchive.Reader reader = new DumpArchive.Reader(dumpFile)) {
                DumpInfo result = reader.dumpInfo();
                return new DumpInfo(result.format(), result.checkpointName(), result.checkpointPosition(),
                        result.sourceEngine(), result.tables(), size, result.created());
            }
        } catch (DumpException e) {
            throw e;
        } catch (Exception e) {
            throw new DumpException("backup to " + dumpFile + " failed (nothing was written): " + e.getMessage(), e);
        }
    }

    /** A table being dumped: its real names for the SELECT, its safe names for the XML. */
    private record TableSource(Table table, String name, String[] columns, String safeName, String[] safeColumns) {
    }

    private long dumpTable(Connection source, Engine engine, TableSource t, DataXmlWriter xml, long done, long total,
                           Progress progress, Map<String, String> info) throws Exception {
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < t.columns().length; i++) {
            select.append(i == 0 ? "" : ", ").append(SqlIdentifiers.quote(engine, t.columns()[i]));
        }
        select.append(" FROM ").append(SqlIdentifiers.quote(engine, t.name()));
        Column[] columns = t.table().getColumns();
        Map<Integer, Integer> keyLengths = new HashMap<>();
        for (Column c : PortableModel.keyedUnboundedText(t.table())) {
            keyLengths.put(t.table().getColumnIndex(c), 0);
        }
        long row = 0;
        try (Statement s = source.createStatement()) {
            s.setFetchSize(FETCH_SIZE); // PostgreSQL and MariaDB would otherwise buffer the whole table
            try (ResultSet rs = s.executeQuery(select.toString())) {
                ResultSetMetaData md = rs.getMetaData();
                String[] nativeTypes = new String[columns.length];
                for (int i = 0; i < columns.length; i++) {
                    nativeTypes[i] = md.getColumnTypeName(i + 1);
                }
                String[] values = new String[columns.length];
                while (rs.next()) {
                    row++;
                    for (int i = 0; i < columns.length; i++) {
                        try {
                            values[i] = ValueText.read(rs, i + 1, columns[i], engine, nativeTypes[i]);
                        } catch (IllegalArgumentException e) {
                            throw new DumpException("table " + t.name() + ", column " + t.columns()[i] + ", row " + row
                                    + ": " + e.getMessage());
                        }
                    }
                    for (Map.Entry<Integer, Integer> k : keyLengths.entrySet()) {
                        String v = values[k.getKey()];
                        if (v != null && v.length() > k.getValue()) {
                            k.setValue(v.length());
                        }
                    }
                    xml.row(t.safeName(), t.safeColumns(), values);
                    if (++done % BATCH_SIZE == 0) {
                        progress.report(done, total, "rows");
                    }
                }
            }
        }
        keyLengths.forEach((i, length) ->
                info.put("keylength." + t.safeName() + "." + t.safeColumns()[i], Integer.toString(length)));
        progress.report(done, total, "rows");
        return done;
    }

    // ------------------------------------------------------------------ restore

    @Override
    public void restore(Path dumpFile, Connection target, boolean force, Progress progress) throws DumpException {
        Progress report = progress == null ? Progress.NONE : progress;
        try (DumpArchive.Reader in = new DumpArchive.Reader(dumpFile)) {
            DumpInfo info = in.dumpInfo();
            if (!FORMAT.equals(info.format())) {
                throw new DumpException("dump " + dumpFile + " is in format '" + info.format() + "', not " + FORMAT);
            }
            in.verify(report); // damage is found before anything is applied
            Engine engine = Engine.of(target);
            if (!supports(engine)) {
                throw new DumpException("the portable backuper cannot restore onto "
                        + target.getMetaData().getDatabaseProductName());
            }
            Database model;
            try (InputStream schema = in.entry(SCHEMA)) {
                DatabaseIO io = new DatabaseIO();
                io.setValidateXml(false); // BOOLEAN and friends are not in DdlUtils 1.0's DTD
                model = io.read(new InputStreamReader(schema, StandardCharsets.UTF_8));
            }
            new Restore(in, info, model, target, engine, force, report).run();
        } catch (DumpException e) {
            throw e;
        } catch (Exception e) {
            throw new DumpException("restore of " + dumpFile + " failed: " + e.getMessage(), e);
        }
    }

    /** One restore: fits the model to the target, checks the target, then creates and loads. */
    private static final class Restore implements DataXmlReader.Sink {
        private final DumpArchive.Reader in;
        private final DumpInfo info;
        private final Database model;
        private final Connection target;
        private final Engine engine;
        private final boolean force;
        private final Progress progress;
        private final Platform platform;
        private final Map<String, Table> bySafeName = new HashMap<>();
        // DdlUtils' Table hashes by its name and content, which renaming changes: key by identity
        private final Map<Table, String[]> safeColumns = new IdentityHashMap<>();
        private final Map<Table, String> safeNameOf = new IdentityHashMap<>();
        private final List<String> dropped = new ArrayList<>();
        private final List<String> created = new ArrayList<>();
        private Table loading;
        private PreparedStatement insert;
        private int pending;
        private long rows;
        private long tableRows;

        Restore(DumpArchive.Reader in, DumpInfo info, Database model, Connection target, Engine engine, boolean force,
                Progress progress) throws DumpException {
            this.in = in;
            this.info = info;
            this.model = model;
            this.target = target;
            this.engine = engine;
            this.force = force;
            this.progress = progress;
            this.platform = PortableModel.platform(engine);
        }

        void run() throws Exception {
            fitModel();
            Map<String, String> existing = existingTables();
            checkTarget(existing);
            boolean autoCommit = target.getAutoCommit();
            Session session = Session.open(engine, target);
            target.setAutoCommit(false);
            try {
                session.deferForeignKeys();
                for (Table t : PortableModel.parentsFirst(model)) {
                    String actual = existing.get(t.getName().toLowerCase(Locale.ROOT));
                    if (actual != null) {
                        execute("DROP TABLE " + SqlIdentifiers.quote(engine, actual)
                                + (engine == Engine.POSTGRESQL ? " CASCADE" : ""));
                        dropped.add(actual);
                    }
                }
                SqlBuilder builder = platform.getSqlBuilder();
                applyForeignKeyRules((ForeignKeyRules.Aware) builder);
                Map<String, String> options = new LinkedHashMap<>();
                for (Table t : PortableModel.parentsFirst(model)) {
                    StringWriter sql = new StringWriter();
                    builder.setWriter(sql);
                    builder.createTable(model, t, options);
                    executeScript(sql.toString());
                    created.add(t.getName());
                }
                try (InputStream data = new BufferedInputStream(in.entry(DATA), 1 << 16);
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
                progress.report(rows, info.totalRows(), "rows");
            } catch (Exception e) {
                throw failed(e);
            } finally {
                session.close();
                target.setAutoCommit(autoCommit);
            }
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

        /** Real names (folded for the target), unique constraint names, bounded keyed text on MariaDB. */
        private void fitModel() throws DumpException {
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
            PortableModel.uniqueConstraintNames(model);
            model.initialize();
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

        private void checkTarget(Map<String, String> existing) throws SQLException, DumpException {
            List<String> holding = new ArrayList<>();
            for (Table t : model.getTables()) {
                String actual = existing.get(t.getName().toLowerCase(Locale.ROOT));
                if (actual != null) {
                    long n = SqlIdentifiers.countRows(engine, target, actual);
                    if (n > 0) {
                        holding.add(actual + " (" + n + " rows)");
                    }
                }
            }
            if (!holding.isEmpty() && !force) {
                throw new DumpException("refusing to restore: the target already holds data in " + String.join(", ", holding)
                        + "; restore with force to drop and replace those tables. Nothing was changed.");
            }
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
                // the message below says what state the target is in
            }
            String what = cause.getMessage();
            if (cause instanceof SQLException sql && sql.getNextException() != null) {
                what += " (" + sql.getNextException().getMessage() + ")";
            }
            if (engine != Engine.MARIADB) {
                return new DumpException("restore failed and was rolled back, the target is as it was: " + what, cause);
            }
            // MariaDB commits every CREATE and DROP at once: undo what we can and say what is left
            List<String> cleanupFailed = new ArrayList<>();
            for (String table : created) {
                try {
                    execute("DROP TABLE IF EXISTS " + SqlIdentifiers.quote(engine, table));
                } catch (SQLException e) {
                    cleanupFailed.add(table);
                }
            }
            StringBuilder m = new StringBuilder("restore failed: ").append(what).append(". MariaDB cannot roll back ")
                    .append("table creation: ");
            m.append(created.isEmpty() ? "no table had been created" : "the tables created (" + String.join(", ", created)
                    + ") were dropped again" + (cleanupFailed.isEmpty() ? "" : " except " + String.join(", ", cleanupFailed)));
            if (!dropped.isEmpty()) {
                m.append("; the tables replaced with force (").append(String.join(", ", dropped))
                        .append(") were already dropped and are lost");
            }
            return new DumpException(m.append('.').toString(), cause);
        }
    }

    /** Per-engine session settings a restore needs, put back afterwards. */
    private static final class Session implements AutoCloseable {
        private final Engine engine;
        private final Connection c;
        private String sqlMode;
        private String foreignKeyChecks;

        private Session(Engine engine, Connection c) {
            this.engine = engine;
            this.c = c;
        }

        static Session open(Engine engine, Connection c) throws SQLException {
            Session s = new Session(engine, c);
            if (engine == Engine.MARIADB) {
                try (Statement st = c.createStatement();
                     ResultSet rs = st.executeQuery("SELECT @@SESSION.sql_mode, @@SESSION.foreign_key_checks")) {
                    rs.next();
                    s.sqlMode = rs.getString(1);
                    s.foreignKeyChecks = rs.getString(2);
                }
                try (Statement st = c.createStatement()) {
                    // an explicit 0 in an AUTO_INCREMENT column stays 0 instead of drawing a new value
                    st.execute("SET SESSION sql_mode = CONCAT_WS(',', NULLIF(@@SESSION.sql_mode, ''), 'NO_AUTO_VALUE_ON_ZERO')");
                    st.execute("SET SESSION foreign_key_checks = 0"); // keys are added after the data
                }
            }
            return s;
        }

        void deferForeignKeys() throws SQLException {
            if (engine == Engine.SQLITE) {
                try (Statement st = c.createStatement()) {
                    st.execute("PRAGMA defer_foreign_keys = ON"); // checked at commit, whatever the table order
                }
            }
        }

        @Override
        public void close() throws SQLException {
            if (engine == Engine.MARIADB) {
                try (PreparedStatement st = c.prepareStatement("SET SESSION sql_mode = ?")) {
                    st.setString(1, sqlMode);
                    st.execute();
                }
                try (Statement st = c.createStatement()) {
                    st.execute("SET SESSION foreign_key_checks = " + ("0".equals(foreignKeyChecks) ? 0 : 1));
                }
            }
        }
    }
}
