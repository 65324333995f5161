package org.phalanx.recoverylog.dump;

import java.io.BufferedOutputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.ddlutils.io.DatabaseIO;
import org.apache.ddlutils.model.Column;
import org.apache.ddlutils.model.Database;
import org.apache.ddlutils.model.ForeignKey;
import org.apache.ddlutils.model.Table;
import org.phalanx.engine.Engine;

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
 * (SQLite), so table order and cycles do not matter; a failed restore leaving the target as it
 * was ({@link PortableRestore}); declared types kept where SQLite's metadata loses them.
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
        return backupUnion(List.of(new Part(source, null)), dumpFile, checkpointName, checkpointPosition, progress);
    }

    /**
     * Some tables of one database: {@code tables} names them as the database does (compared
     * case-insensitively), or null for all of them.
     */
    public record Part(Connection source, java.util.Set<String> tables) {
        boolean takes(String table) {
            return tables == null || tables.stream().anyMatch(t -> t.equalsIgnoreCase(table));
        }
    }

    /**
     * Dumps the union of several databases' tables as one dump, each table read from the one part
     * that names it — a member replicating partially, none of whose backends holds every table
     * (docs/distribution.md, Compaction). Every part's connection holds a snapshot of the same
     * moment, as for {@link #backup}; a table named by two parts is refused. The dump restores
     * like any other: nothing in it says it came from several databases (its source engine is the
     * first part's).
     */
    public DumpInfo backupUnion(List<Part> parts, Path dumpFile, String checkpointName, long checkpointPosition,
                                Progress progress) throws DumpException {
        Objects.requireNonNull(checkpointName, "checkpointName");
        Progress report = progress == null ? Progress.NONE : progress;
        try (DumpArchive.Writer out = new DumpArchive.Writer(dumpFile)) {
            Database model = new Database();
            model.setName("dump"); // as PortableModel reads a single database
            Map<ForeignKey, String[]> rules = new IdentityHashMap<>();
            Map<Table, Connection> sourceOf = new IdentityHashMap<>();
            Map<Connection, Engine> engines = new IdentityHashMap<>();
            Map<String, Table> seen = new HashMap<>();
            for (Part part : parts) {
                Engine engine = Engine.of(part.source());
                if (!supports(engine)) {
                    throw new DumpException("the portable backuper cannot read "
                            + part.source().getMetaData().getDatabaseProductName());
                }
                engines.put(part.source(), engine);
                PortableModel.Source read = PortableModel.read(part.source(), engine);
                for (Table t : read.db().getTables()) {
                    if (!part.takes(t.getName())) {
                        continue;
                    }
                    if (seen.put(t.getName().toLowerCase(java.util.Locale.ROOT), t) != null) {
                        throw new DumpException("table " + t.getName() + " is taken from two databases");
                    }
                    model.addTable(t);
                    sourceOf.put(t, part.source());
                }
                rules.putAll(read.rules());
            }
            Connection first = parts.get(0).source();
            List<Table> tables = PortableModel.parentsFirst(model);

            Map<String, String> info = new LinkedHashMap<>();
            info.put("format", FORMAT);
            info.put("checkpoint.name", checkpointName);
            info.put("checkpoint.position", Long.toString(checkpointPosition));
            info.put("source.engine", engines.get(first).name());
            info.put("source.product", first.getMetaData().getDatabaseProductName() + " "
                    + first.getMetaData().getDatabaseProductVersion());
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
                Connection source = sourceOf.get(t);
                Engine engine = engines.get(source);
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
                String collation = engine == Engine.MARIADB ? Collations.ofTable(source, t.getName()) : null;
                if (collation != null) {
                    info.put("collation." + safe, collation);
                }
                sources.add(new TableSource(t, t.getName(), columnNames.toArray(String[]::new), safe,
                        columnNames.stream().map(cs::get).toArray(String[]::new), source, engine));
                for (int k = 0; k < t.getForeignKeyCount(); k++) {
                    String[] rule = rules.get(t.getForeignKey(k));
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
                    done = dumpTable(t, xml, done, total, report, info);
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
    private record TableSource(Table table, String name, String[] columns, String safeName, String[] safeColumns,
                               Connection source, Engine engine) {
    }

    private long dumpTable(TableSource t, DataXmlWriter xml, long done, long total, Progress progress,
                           Map<String, String> info) throws Exception {
        Connection source = t.source();
        Engine engine = t.engine();
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

    /** An engine it cannot restore onto, or rows in the dump's tables without force (only those are replaced). */
    @Override
    public String refusal(DumpInfo info, Connection target, boolean force) throws SQLException {
        if (!supports(Engine.of(target))) {
            return "the portable backuper cannot restore onto " + target.getMetaData().getDatabaseProductName();
        }
        String holding = force ? "" : Backuper.holdingRows(target, info.tables().stream().map(DumpInfo.TableRows::name).toList());
        return holding.isEmpty() ? null : "refusing to restore: the target already holds data in " + holding
                + "; restore with force to drop and replace those tables. Nothing was changed.";
    }

    @Override
    public void restore(Path dumpFile, Connection target, boolean force, Progress progress) throws DumpException {
        Progress report = progress == null ? Progress.NONE : progress;
        try (DumpArchive.Reader in = new DumpArchive.Reader(dumpFile)) {
            DumpInfo info = in.dumpInfo();
            if (!FORMAT.equals(info.format())) {
                throw new DumpException("dump " + dumpFile + " is in format '" + info.format() + "', not " + FORMAT);
            }
            in.verify(report); // damage is found before anything is applied
            String refused = refusal(info, target, force);
            if (refused != null) {
                throw new DumpException(refused);
            }
            Engine engine = Engine.of(target);
            Database model;
            try (InputStream schema = in.entry(SCHEMA)) {
                DatabaseIO io = new DatabaseIO();
                io.setValidateXml(false); // BOOLEAN and friends are not in DdlUtils 1.0's DTD
                model = io.read(new InputStreamReader(schema, StandardCharsets.UTF_8));
            }
            new PortableRestore(in, info, model, target, engine, report).run(); // refused above if rows are in the way
        } catch (DumpException e) {
            throw e;
        } catch (Exception e) {
            throw new DumpException("restore of " + dumpFile + " failed: " + e.getMessage(), e);
        }
    }
}
