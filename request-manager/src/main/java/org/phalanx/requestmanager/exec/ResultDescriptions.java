package org.phalanx.requestmanager.exec;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.RowReader;
import org.phalanx.requestmanager.api.TypedNull;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.SessionSettings;

/**
 * What the results of statements already run look like (their metadata, detached), per backend,
 * SQL text as the backend got it and parameter types, so that a statement run again is not
 * described by the driver again: pgjdbc answers each of the dozen properties the controller sends
 * per column through its type cache's lock, about a sixth of the controller's CPU under TPC-C.
 *
 * <p>On PostgreSQL and MariaDB, what a result looks like changes only with the schema, the session's
 * name resolution, or the backend itself (SQLite's driver types columns by the values of the current
 * row: its results are always described afresh), so a description is kept and used only
 * <ul>
 * <li>while no schema change is in progress and none was ordered since the statement was about to
 *     run ({@link #schemaChanging}, told by the write path for every DDL and every statement it
 *     cannot bound to tables);</li>
 * <li>for sessions with no settings of their own and no home (a search path or a temporary table
 *     may change what a name means);</li>
 * <li>for the backend as it was put in service last (a restored dump may hold other types);</li>
 * <li>when the live result still has the same columns, by count and label;</li>
 * <li>on MariaDB, unless parameters are bound and a column is an expression: its driver writes
 *     them into the text, so such a column is as long as the value.</li>
 * </ul>
 * Only texts up to {@link #LONGEST_TEXT} characters are kept, so that the memory stays bounded.
 * A follower's readers, whose backends change under them by the log's replay, keep none ({@link #NONE}).
 */
public final class ResultDescriptions {
    /** Keeps nothing: every result is described by its driver. */
    public static final ResultDescriptions NONE = new ResultDescriptions(0);
    /** Descriptions kept at most; past that the memory starts afresh (a forgotten one costs one description). */
    static final int MOST = 10_000;
    /** Longest SQL text whose results' description is kept: a key holds its text (and compares it). */
    static final int LONGEST_TEXT = 4096;

    private final int capacity;
    private final Map<Key, ResultSetMetaData> known = new ConcurrentHashMap<>();
    /** Counts the schema changes ordered and finished: a description taken across one is not kept. */
    private final AtomicLong changes = new AtomicLong();
    /** Schema changes ordered and not yet finished on every backend. */
    private final AtomicInteger changing = new AtomicInteger();

    private record Key(Backend backend, int serviceGeneration, String sql, List<Object> parameterTypes) {
    }

    public ResultDescriptions() {
        this(MOST);
    }

    ResultDescriptions(int capacity) {
        this.capacity = capacity;
    }

    /** A schema change is ordered: nothing kept is used until it has finished everywhere. */
    public void schemaChanging() {
        changing.incrementAndGet();
        changes.incrementAndGet();
        known.clear();
    }

    /** A schema change ordered before has finished (or failed) on every backend. */
    public void schemaChanged() {
        changes.incrementAndGet();
        known.clear();
        changing.decrementAndGet();
    }

    /**
     * The describing of the result of {@code sql} (as {@code b} gets it) run for {@code r}, taken
     * just before it runs.
     */
    public Describing before(Backend b, String sql, Request r, SessionSettings settings) {
        if (capacity == 0 || !typesResults(b.engine()) || sql.length() > LONGEST_TEXT || !settings.isEmpty()
                || settings.home() != null || changing.get() > 0) {
            return Describing.DRIVER;
        }
        return new Kept(b, b.serviceGeneration(), sql, r.params(), changes.get());
    }

    /**
     * Whether the engine's results have column types of their own, the same for every run: not
     * SQLite's, whose driver reports an expression's (or an untyped column's) type from the value in
     * the current row, nor another controller's, which may be over SQLite, nor an unknown engine's.
     */
    private static boolean typesResults(Engine engine) {
        return engine == Engine.POSTGRESQL || engine == Engine.MARIADB;
    }

    /** How parameters were bound, where a result's column types may depend on it ({@code SELECT ? AS x}). */
    private static List<Object> parameterTypes(List<Object> params) {
        if (params.isEmpty()) {
            return List.of();
        }
        List<Object> types = new ArrayList<>(params.size());
        for (Object p : params) {
            types.add(p == null ? null : p instanceof TypedNull n ? n.sqlType() : p.getClass());
        }
        return types;
    }

    /** Describes one result. */
    public interface Describing {
        /** Asks the driver every time. */
        Describing DRIVER = rs -> RowReader.detach(rs.getMetaData());

        /** The result's metadata, detached from it. */
        ResultSetMetaData describe(ResultSet rs) throws SQLException;
    }

    /** What a statement about to run is; its key is made only if it returns rows (most writes do not). */
    private final class Kept implements Describing {
        private final Backend backend;
        private final int serviceGeneration;
        private final String sql;
        private final List<Object> params;
        private final long changesSeen;

        Kept(Backend backend, int serviceGeneration, String sql, List<Object> params, long changesSeen) {
            this.backend = backend;
            this.serviceGeneration = serviceGeneration;
            this.sql = sql;
            this.params = params;
            this.changesSeen = changesSeen;
        }

        @Override
        public ResultSetMetaData describe(ResultSet rs) throws SQLException {
            ResultSetMetaData live = rs.getMetaData();
            if (changes.get() != changesSeen) { // a schema change was ordered meanwhile: it may have run first
                return RowReader.detach(live);
            }
            Key key = new Key(backend, serviceGeneration, sql, parameterTypes(params));
            ResultSetMetaData kept = known.get(key);
            if (kept != null && sameColumns(kept, live)) {
                return kept;
            }
            ResultSetMetaData described = RowReader.detach(live);
            if (sizedByValues(described)) {
                return described;
            }
            if (known.size() >= capacity) {
                known.clear();
            }
            known.put(key, described);
            if (changes.get() != changesSeen) { // ordered while this was put: not to be used
                known.remove(key, described);
            }
            return described;
        }

        /**
         * Whether a column's size may follow the values bound: MariaDB's driver writes parameters into
         * the text, so {@code SELECT ? AS name} is as long as the value given (an expression's column
         * has no table).
         */
        private boolean sizedByValues(ResultSetMetaData described) throws SQLException {
            if (backend.engine() != Engine.MARIADB || params.isEmpty()) {
                return false;
            }
            for (int i = 1; i <= described.getColumnCount(); i++) {
                if (described.getTableName(i).isEmpty()) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Whether the live result has the kept description's columns (count and labels: cheap for every driver). */
    private static boolean sameColumns(ResultSetMetaData kept, ResultSetMetaData live) throws SQLException {
        int n = kept.getColumnCount();
        if (live.getColumnCount() != n) {
            return false;
        }
        for (int i = 1; i <= n; i++) {
            if (!Objects.equals(kept.getColumnLabel(i), live.getColumnLabel(i))) {
                return false;
            }
        }
        return true;
    }

    /** How many descriptions are kept (for tests). */
    int size() {
        return known.size();
    }
}
