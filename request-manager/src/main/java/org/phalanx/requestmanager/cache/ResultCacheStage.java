package org.phalanx.requestmanager.cache;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.RowReader;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.Backends;
import org.phalanx.requestmanager.backend.SessionSettings;
import org.phalanx.requestmanager.backend.SessionTails;
import org.phalanx.requestmanager.balancer.ReadAdmission;
import org.phalanx.requestmanager.exec.BackendReads;
import org.phalanx.requestmanager.exec.Closeables;
import org.phalanx.requestmanager.routing.Routing;
import org.phalanx.requestmanager.routing.SchemaView;
import org.phalanx.requestmanager.scheduler.LockManager;
import org.phalanx.requestmanager.scheduler.Scheduler;
import org.phalanx.requestmanager.stats.CacheStatistics;

/** The cache stage over a {@link ResultCache}: lookups, fills of misses on a caught-up backend, invalidation. */
public final class ResultCacheStage implements CacheStage {
    private final ResultCache cache;
    private final Backends backends;
    private final Routing routing;
    private final Scheduler scheduler;
    private final ReadAdmission admission;
    private final BackendReads reads;

    public ResultCacheStage(ResultCache cache, Backends backends, Routing routing, Scheduler scheduler,
                            ReadAdmission admission, BackendReads reads) {
        this.cache = cache;
        this.backends = backends;
        this.routing = routing;
        this.scheduler = scheduler;
        this.admission = admission;
        this.reads = reads;
    }

    @Override
    public Answer read(Request r, SqlAnalysis a, SessionTails tails, String user, Set<String> ownWrites)
            throws SQLException {
        if (!cacheable(r, a)) {
            return null;
        }
        boolean inTransaction = ownWrites != null;
        if (inTransaction && (ownWrites.contains(LockManager.ALL) || readsAny(a, ownWrites))) {
            return null; // its own uncommitted writes: never from (or into) the cache
        }
        ResultCache.Decision d = cache.lookup(r.sql(), r.params(), r.maxRows(), () -> Touch.ofRead(a, r.params()),
                !inTransaction);
        if (d instanceof ResultCache.Hit hit) {
            return new Answer(new Result.Cached(hit.metaData(), hit.rows()), true);
        }
        if (d instanceof ResultCache.Wait wait) {
            ResultCache.Hit hit = wait.result().join();
            return hit == null ? null : new Answer(new Result.Cached(hit.metaData(), hit.rows()), true);
        }
        if (d instanceof ResultCache.Miss miss) {
            Result filled = fill(r, a, miss.fill(), tails, user);
            return filled == null ? null : new Answer(filled, false);
        }
        return null;
    }

    private static boolean cacheable(Request r, SqlAnalysis a) {
        return a.parsed() && !a.hasMacros() && !a.allTables() && !a.readTables().isEmpty() && !r.wantsKeys();
    }

    private static boolean readsAny(SqlAnalysis a, Set<String> tables) {
        for (String table : a.readTables()) {
            if (tables.contains(SchemaView.key(table))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs a cache miss on a backend that has applied every write queued on the read's tables
     * and stores its rows; a result over the row limit is returned as it streams, not stored.
     * Returns null (read without the cache) when no backend is caught up or the read failed.
     */
    private Result fill(Request r, SqlAnalysis a, ResultCache.Fill fill, SessionTails tails, String user) {
        boolean settled = false;
        try {
            List<Backend> ready = new ArrayList<>();
            for (Backend b : tails.caughtUp(routing.read(a, backends.enabled()).candidates())) {
                if (b.caughtUp(scheduler.readResources(a))) {
                    ready.add(b);
                }
            }
            if (ready.isEmpty()) {
                return null;
            }
            Backend chosen = admission.admit(ready, r.queryTimeoutSeconds());
            if (chosen == null) {
                return null;
            }
            Result result = reads.run(chosen, null, r, user, SessionSettings.NONE); // sessions with settings bypass the cache
            if (!(result instanceof Result.Rows rows)) {
                return result;
            }
            ResultSet rs = rows.resultSet();
            try {
                ResultSetMetaData meta = rows.detachedMetaData();
                RowReader reader = RowReader.of(meta);
                int limit = cache.maxEntryRows();
                List<Object[]> list = new ArrayList<>();
                while (list.size() <= limit && rs.next()) {
                    list.add(reader.read(rs));
                }
                if (list.size() > limit) {
                    cache.abandon(fill, true);
                    settled = true;
                    return new Result.Rows(rs, rows, list, meta);
                }
                rows.close();
                cache.store(fill, meta, list);
                settled = true;
                return new Result.Cached(meta, list);
            } catch (SQLException | RuntimeException e) {
                Closeables.closeQuietly(rows);
                throw e;
            }
        } catch (SQLException e) {
            return null; // the usual path retries elsewhere and reports what must be reported
        } finally {
            if (!settled) {
                cache.abandon(fill, false);
            }
        }
    }

    @Override
    public void invalidate(List<Touch> writes) {
        cache.invalidate(writes);
    }

    @Override
    public boolean caches() {
        return true;
    }

    @Override
    public CacheStatistics statistics() {
        return cache.statistics();
    }

    @Override
    public void flush() {
        cache.flush();
    }
}
