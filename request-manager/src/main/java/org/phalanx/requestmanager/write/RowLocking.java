package org.phalanx.requestmanager.write;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.analysis.KeyValue;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.SqlAnalyzer;
import org.phalanx.requestmanager.analysis.StatementKind;
import org.phalanx.requestmanager.analysis.TableFootprint;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.SessionSettings;
import org.phalanx.requestmanager.exec.ResultDescriptions;
import org.phalanx.requestmanager.scheduler.Access;
import org.phalanx.requestmanager.scheduler.LockManager;
import org.phalanx.requestmanager.scheduler.RowKeys;

/**
 * Key-level write conflicts ({@code lockGranularity="key"}): a write that provably touches one row
 * of a table, named by its integer primary key (of one or several columns), locks and queues on
 * that row only ({@link RowKeys}), so writes of different rows run in parallel on every backend,
 * in any order.
 *
 * <p>They commute only where nothing else links rows. So every backend must be PostgreSQL or
 * MariaDB (they lock rows), and the table must qualify ({@link TableTraits#rowsCommute}). The
 * statement must be one UPDATE or DELETE restricted by {@code key = value} on every key column
 * (or on the first ones: it then locks the {@link RowKeys#prefix prefix}), not changing a key or
 * foreign-key column; or one INSERT giving every key column (a table without key or unique index:
 * any one-row INSERT) and every column whose default is computed, into a table with no counter
 * default; or one {@code SELECT ... FOR UPDATE/SHARE} restricted in the same way.
 * It must contain no subquery nor function call (a function may read or write other rows).
 *
 * <p>Foreign keys: an INSERT also locks the parent row of each of its foreign keys (its insert
 * depends on that row existing); a DELETE of a table that has children stays at table level.
 * Every write left at table level in such a vdb locks its foreign-key relatives too: it reads its
 * parent tables if it may set a foreign key (an insert needs their rows), and writes its
 * descendants (a delete cascades, or fails, by what they hold). A table's traits are read from a
 * backend's metadata once, and forgotten at any DDL; from a DDL's order until it has run
 * (committed) on every backend, the backends' schemas may differ: writes of the tables it names
 * stay at table level, and while a DDL whose tables are not known settles, writes lock the whole
 * database.
 */
final class RowLocking {
    private static final Logger LOG = LogManager.getLogger(RowLocking.class);
    private static final Pattern SIMPLE_INSERT = Pattern.compile("(?is)\\s*INSERT\\s+INTO\\b.*");
    private static final Pattern LOCKING_READ = Pattern.compile("(?is)\\s*SELECT\\b.*");
    private static final Pattern DELETE = Pattern.compile("(?is)\\s*DELETE\\b.*");
    private static final Pattern UPSERT = Pattern.compile("(?is).*\\bON\\s+(CONFLICT|DUPLICATE)\\b.*");
    private static final Pattern SELECT = Pattern.compile("(?i)\\bSELECT\\b");
    /** A call: a function may read or write other rows (a column list or VALUES is not one). */
    private static final Pattern CALL = Pattern.compile("([A-Za-z_][\\w.\"]*)\\s*\\(");
    private static final Pattern STRING_LITERAL = Pattern.compile("'(?:[^']|'')*'");
    private static final int MAX_SHAPES = 10_000;

    /**
     * What a write's text says, read once per text (the regular expressions cost more than the
     * rest of the request path): whether it may be bounded to rows at all (no subquery, no function
     * call), and which statement it is.
     */
    private record Shape(boolean boundable, boolean insert, boolean upsert, boolean delete, boolean lockingRead) {
    }

    private final Map<String, Shape> shapes = new ConcurrentHashMap<>();
    private final boolean enabled;
    private final Map<String, TableTraits> traits = new ConcurrentHashMap<>();
    /** Counts the schema changes seen: a write refined before one must not rely on what it found. */
    private final AtomicLong schemaChanges = new AtomicLong();
    /** Schema changes ordered and not yet finished on every backend, whose tables are not known. */
    private final AtomicInteger settling = new AtomicInteger();
    /** The tables of the other schema changes ordered and not yet finished everywhere (a count per table). */
    private final Map<String, Integer> settlingTables = new ConcurrentHashMap<>();
    /** The tables of the latest schema changes, by their count ({@link LockManager#ALL}: any table). */
    private final java.util.concurrent.ConcurrentSkipListMap<Long, Set<String>> recentChanges =
            new java.util.concurrent.ConcurrentSkipListMap<>();
    private static final int MAX_RECENT_CHANGES = 1000;
    /** Names the rows inserted into tables without a key. */
    private final AtomicLong freshRows = new AtomicLong();

    /** Told of every schema change too: what results look like may change with it. */
    private final ResultDescriptions descriptions;

    RowLocking(boolean enabled, ResultDescriptions descriptions) {
        this.enabled = enabled;
        this.descriptions = descriptions;
    }

    /**
     * The write's access: at row level where it qualifies; otherwise {@code tableLevel} with the
     * foreign-key relatives of its tables. A locking read that takes shared locks ({@code FOR SHARE})
     * holds the same resources shared: such reads of one row run side by side, as on the engines,
     * and a write of it waits for them.
     */
    Access refine(Access tableLevel, SqlAnalysis a, String sql, List<Object> params, List<Backend> backends, String user) {
        Access access = refineWrite(tableLevel, a, sql, params, backends, user);
        if (!a.sharedLocks() || access.writesAll()) {
            return access;
        }
        Set<String> resources = new HashSet<>(access.reads());
        resources.addAll(access.writes());
        return Access.reading(resources);
    }

    private Access refineWrite(Access tableLevel, SqlAnalysis a, String sql, List<Object> params, List<Backend> backends,
                               String user) {
        if (!locksRows(tableLevel, backends)) {
            return tableLevel;
        }
        if (!enabled) { // table-level conflicts: only the tables reaching others need more, once their traits can be read
            return settling.get() == 0 && !touchesSettling(tableLevel) && reachesOtherTables(tableLevel, backends, user)
                    ? Access.EVERYTHING : tableLevel;
        }
        if (settling.get() > 0) {
            return Access.EVERYTHING;
        }
        if (touchesSettling(tableLevel)) {
            return tableLevel;
        }
        if (reachesOtherTables(tableLevel, backends, user)) {
            return Access.EVERYTHING;
        }
        Backend source = backends.get(0);
        Access rows = rowLevel(tableLevel, a, sql, params, source, user);
        return rows != null ? rows : withRelatives(tableLevel, a, sql, source, user);
    }

    /**
     * After a schema change that came while the write waited for its locks: the tables of
     * everything it locked, with their relatives as the schema now says.
     */
    Access afterSchemaChange(Access tableLevel, Access refined, List<Backend> backends, String user) {
        Set<String> writes = new HashSet<>(tableLevel.writes());
        refined.writes().forEach(r -> writes.add(RowKeys.tableOf(r)));
        Set<String> reads = new HashSet<>(tableLevel.reads());
        refined.reads().forEach(r -> reads.add(RowKeys.tableOf(r)));
        Access tables = Access.of(reads, writes);
        if (!enabled || !locksRows(tables, backends)) {
            return tables;
        }
        if (settling.get() > 0) {
            return Access.EVERYTHING;
        }
        if (touchesSettling(tables)) {
            return tables;
        }
        SqlAnalysis unknown = new SqlAnalysis(StatementKind.WRITE, Set.of(), Set.of(), false, false, false);
        return withRelatives(tables, unknown, "", backends.get(0), user);
    }

    /**
     * Whether the write touches a table whose writes reach others beyond what the statement names
     * (a trigger filling an audit table, a sequence two tables draw from): conflicting with nothing
     * but its own tables, it ran beside another table's write doing the same, and each replica
     * handed out the shared counter in its own order (an outside tester's finding). Such writes
     * conflict with everything, at key or table granularity (SQLite's database granularity has them
     * so already). Read where every backend locks rows (PostgreSQL, MariaDB), after the schema-change
     * guards, from the traits the relatives are found from: read earlier, for a table a migration's
     * open transaction had altered, it waited for that transaction's lock.
     */
    private boolean reachesOtherTables(Access tableLevel, List<Backend> backends, String user) {
        for (String table : tableLevel.writes()) { // the traits the relatives are found from (withRelatives)
            if (traits(table, backends.get(0), user).reachesOtherTables()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the write is of some tables and every backend locks rows: key-level conflicts may apply
     * (where {@code enabled}), and writes reaching other tables must be found, at either granularity.
     */
    private static boolean locksRows(Access tableLevel, List<Backend> backends) {
        if (tableLevel.writesAll() || tableLevel.writes().isEmpty() || backends.isEmpty()) {
            return false;
        }
        for (Backend b : backends) {
            if (b.engine() != Engine.POSTGRESQL && b.engine() != Engine.MARIADB) {
                return false;
            }
        }
        return true;
    }

    /** The table as the statement names it (with its schema or database, if it says one), for its traits. */
    private static String writtenAs(SqlAnalysis a, String table) {
        for (String named : a.writtenTables()) {
            if (SqlAnalyzer.tableKey(named).equals(table)) {
                return named;
            }
        }
        return table;
    }

    /** Whether the access names a row (rather than only whole tables). */
    static boolean isRowLevel(Access access) {
        return access.writes().stream().anyMatch(RowKeys::isRow);
    }

    private Access rowLevel(Access tableLevel, SqlAnalysis a, String sql, List<Object> params, Backend source,
                            String user) {
        if (a.kind() != StatementKind.WRITE || !a.parsed() || a.footprint() == null || !tableLevel.reads().isEmpty()
                || tableLevel.writes().size() != 1) {
            return null;
        }
        String table = tableLevel.writes().iterator().next();
        Shape shape = shape(sql, table);
        if (!shape.boundable()) {
            return null;
        }
        List<TableFootprint> footprints = a.footprint().tables();
        if (footprints.size() != 1 || !footprints.get(0).table().equals(table) || !a.readTables().stream().allMatch(table::equals)) {
            return null;
        }
        TableTraits t = traits(writtenAs(a, table), source, user);
        if (!t.rowsCommute()) {
            return null;
        }
        TableFootprint f = footprints.get(0);
        Map<String, Object> values = new HashMap<>();
        for (KeyValue k : f.keys()) {
            if (!k.isParameter()) {
                values.put(k.column().toLowerCase(Locale.ROOT), k.literal());
            } else if (k.parameter() <= params.size()) {
                values.put(k.column().toLowerCase(Locale.ROOT), params.get(k.parameter() - 1));
            }
        }
        if (shape.insert()) {
            return insert(table, t, shape, values);
        }
        int given = 0; // the leading key columns it names a value for
        while (given < t.key().size() && values.containsKey(t.key().get(given))) {
            given++;
        }
        if (given == 0) {
            return null;
        }
        if (!shape.lockingRead()) {
            if (shape.delete() ? !t.children().isEmpty() : f.rowsChange()) {
                return null; // a parent's delete reaches its children; REPLACE, MERGE
            }
            if (!shape.delete() && (f.columns() == null || moves(f.columns(), t))) {
                return null;
            }
        }
        List<Object> key = values(t.key().subList(0, given), values);
        String rows = given == t.key().size() ? RowKeys.of(table, key) : RowKeys.prefix(table, key);
        return rows == null ? null : Access.writing(Set.of(rows));
    }

    /** An INSERT: its row, and the parent row of each foreign key it sets. */
    private Access insert(String table, TableTraits t, Shape shape, Map<String, Object> given) {
        if (!t.insertsCommute() || shape.upsert() || !given.keySet().containsAll(t.computedDefaults())
                || !given.keySet().containsAll(t.key())) {
            return null;
        }
        Set<String> rows = new HashSet<>();
        String own = t.key().isEmpty() ? RowKeys.fresh(table, freshRows.incrementAndGet())
                : RowKeys.of(table, values(t.key(), given));
        if (own == null) {
            return null;
        }
        rows.add(own);
        for (TableTraits.ForeignKey fk : t.parents()) {
            if (!given.keySet().containsAll(fk.columns())) {
                return null;
            }
            List<Object> values = values(fk.columns(), given);
            if (values.contains(null)) {
                continue; // a NULL in a foreign key: nothing to reference
            }
            String parent = RowKeys.of(fk.parent(), values);
            if (parent == null) {
                return null;
            }
            rows.add(parent);
        }
        return Access.writing(rows);
    }

    /** Whether an UPDATE of these columns changes a key: its own, or a foreign key (the parent row changes). */
    private static boolean moves(Set<String> changed, TableTraits t) {
        Set<String> keys = new HashSet<>(t.key());
        t.parents().forEach(fk -> keys.addAll(fk.columns()));
        return changed.stream().anyMatch(c -> keys.contains(c.toLowerCase(Locale.ROOT)));
    }

    private static List<Object> values(List<String> columns, Map<String, Object> given) {
        List<Object> values = new ArrayList<>();
        for (String c : columns) {
            values.add(given.get(c));
        }
        return values;
    }

    /**
     * A table-level write with its relatives: reading the parent tables of the tables it writes
     * (unless it only deletes, or updates no foreign-key column: then it needs no parent row),
     * and writing every descendant (a delete cascades there, or fails by what they hold).
     */
    private Access withRelatives(Access tableLevel, SqlAnalysis a, String sql, Backend source, String user) {
        Set<String> reads = new HashSet<>(tableLevel.reads());
        Set<String> writes = new HashSet<>(tableLevel.writes());
        for (String table : tableLevel.writes()) {
            TableTraits t = traits(table, source, user);
            if (setsForeignKeys(t, table, a, sql)) {
                t.parents().forEach(fk -> reads.add(fk.parent()));
            }
        }
        Deque<String> toVisit = new ArrayDeque<>(tableLevel.writes());
        while (!toVisit.isEmpty()) {
            for (String child : traits(toVisit.pop(), source, user).children()) {
                if (writes.add(child)) {
                    toVisit.push(child);
                }
            }
        }
        return writes.size() == tableLevel.writes().size() && reads.equals(tableLevel.reads()) ? tableLevel
                : Access.of(reads, writes);
    }

    /** Whether the write may set a foreign key of the table: anything but a DELETE, or an UPDATE of other columns. */
    private boolean setsForeignKeys(TableTraits t, String table, SqlAnalysis a, String sql) {
        if (t.parents().isEmpty()) {
            return false;
        }
        if (!a.parsed() || a.footprint() == null || a.footprint().tables().size() != 1
                || !a.footprint().tables().get(0).table().equals(table)) {
            return true;
        }
        TableFootprint f = a.footprint().tables().get(0);
        Shape shape = shape(sql, table);
        if (shape.delete()) {
            return false;
        }
        if (f.rowsChange() || f.columns() == null || shape.insert()) {
            return true;
        }
        Set<String> foreign = new HashSet<>();
        t.parents().forEach(fk -> foreign.addAll(fk.columns()));
        return f.columns().stream().anyMatch(c -> foreign.contains(c.toLowerCase(Locale.ROOT)));
    }

    /** The write's {@link Shape}; {@code table} is the one table it writes (the same for every execution of the text). */
    private Shape shape(String sql, String table) {
        Shape known = shapes.get(sql);
        if (known != null) {
            return known;
        }
        if (shapes.size() > MAX_SHAPES) {
            shapes.clear(); // an application that builds its SQL with values inside: start again
        }
        boolean lockingRead = LOCKING_READ.matcher(sql).matches();
        boolean boundable = SELECT.matcher(sql).results().count() == (lockingRead ? 1 : 0) && !callsFunctions(sql, table);
        Shape shape = new Shape(boundable, SIMPLE_INSERT.matcher(sql).matches(), UPSERT.matcher(sql).matches(),
                DELETE.matcher(sql).matches(), lockingRead);
        shapes.put(sql, shape);
        return shape;
    }

    /** Whether the statement calls something (outside string literals) other than its table's column list and VALUES. */
    static boolean callsFunctions(String sql, String table) {
        java.util.regex.Matcher m = CALL.matcher(STRING_LITERAL.matcher(sql).replaceAll("''"));
        while (m.find()) {
            String name = m.group(1).replace("\"", "").toLowerCase(Locale.ROOT);
            if (!name.equals("values") && !name.equals(table) && !name.endsWith("." + table)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A DDL (or a statement not understood) that locks {@code access} was ordered: tables, keys,
     * indexes or triggers may change. Until it has finished on every backend, their schemas may
     * differ and a backend's metadata may not show it yet: writes meanwhile lock the tables it
     * names at table level, or, when it may touch any table, the whole database.
     */
    void schemaChanging(Access access, Collection<? extends CompletableFuture<?>> onEveryBackend) {
        boolean anyTable = access.writesAll();
        if (anyTable) {
            settling.incrementAndGet();
        } else {
            access.writes().forEach(t -> settlingTables.merge(t, 1, Integer::sum));
        }
        forget(access);
        descriptions.schemaChanging();
        CompletableFuture.allOf(onEveryBackend.toArray(CompletableFuture[]::new)).whenComplete((v, e) -> {
            forget(access);
            descriptions.schemaChanged();
            if (anyTable) {
                settling.decrementAndGet();
            } else {
                access.writes().forEach(t -> settlingTables.computeIfPresent(t, (k, n) -> n == 1 ? null : n - 1));
            }
        });
    }

    private boolean touchesSettling(Access tables) {
        if (settlingTables.isEmpty()) {
            return false;
        }
        for (String t : tables.writes()) {
            if (settlingTables.containsKey(t)) {
                return true;
            }
        }
        for (String t : tables.reads()) {
            if (settlingTables.containsKey(t)) {
                return true;
            }
        }
        return false;
    }

    /** Schema changes of any table, and tables of the others, not yet finished on every backend. */
    int schemaChangesSettling() {
        return settling.get() + settlingTables.size();
    }

    private synchronized void forget(Access changed) {
        long n = schemaChanges.incrementAndGet();
        recentChanges.put(n, changed.writesAll() ? Set.of(LockManager.ALL) : Set.copyOf(changed.writes()));
        while (recentChanges.size() > MAX_RECENT_CHANGES) {
            recentChanges.pollFirstEntry();
        }
        traits.clear();
    }

    /**
     * Whether a schema change counted after {@code seen} may concern the tables of {@code access}
     * (its rows' tables included): one of any table, or one naming one of them. A write refined to
     * rows before such a change locks its tables again ({@link #afterSchemaChange}); one that only
     * another table's DDL came before goes on: taking its table while it held rows, beside another
     * transaction doing the same, was a deadlock (40001 under a migration of unrelated tables, an
     * outside tester's finding).
     */
    boolean schemaChangedSince(long seen, Access access) {
        long now = schemaChanges.get();
        if (now == seen) {
            return false;
        }
        Map<Long, Set<String>> since = recentChanges.tailMap(seen, false);
        if (since.size() < now - seen) {
            return true; // some were forgotten: they may have
        }
        Set<String> tables = new HashSet<>();
        access.writes().forEach(r -> tables.add(RowKeys.tableOf(r)));
        access.reads().forEach(r -> tables.add(RowKeys.tableOf(r)));
        for (Set<String> changed : since.values()) {
            if (changed.contains(LockManager.ALL) || changed.stream().anyMatch(tables::contains)) {
                return true;
            }
        }
        return false;
    }

    /**
     * How many schema changes were seen so far: read it before {@link #refine}, compare once the
     * write holds its locks (a DDL ordered in between found the tables' traits out of date).
     */
    long schemaChanges() {
        return schemaChanges.get();
    }

    private TableTraits traits(String table, Backend source, String user) {
        TableTraits known = traits.get(table);
        if (known != null) {
            return known;
        }
        long seen = schemaChanges.get();
        TableTraits read = read(source, user, table);
        synchronized (this) {
            if (schemaChanges.get() == seen) { // else read before a schema change: not kept
                traits.putIfAbsent(table, read);
            }
        }
        return read;
    }

    private static TableTraits read(Backend b, String user, String table) {
        try {
            return b.onPooledConnection(user, SessionSettings.NONE, c -> TableTraits.read(c, b.engine(), table));
        } catch (SQLException | RuntimeException e) {
            LOG.debug("table {} keeps table-level write conflicts: {}", table, e.getMessage());
            return TableTraits.UNKNOWN;
        }
    }
}
