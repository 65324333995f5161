package org.phalanx.requestmanager.cache;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.backend.SessionTails;
import org.phalanx.requestmanager.stats.CacheStatistics;

/**
 * The cache stage of the request path: reads answered from stored results (read-through, with
 * the fill of a miss), and the invalidation every write makes before it is answered. {@link #NONE}
 * is the stage of a virtual database without a result cache.
 */
public interface CacheStage {

    /** A read's answer from the cache stage: {@code fromCache} when no backend was asked. */
    record Answer(Result result, boolean fromCache) {
    }

    /**
     * A hit, a filled miss, or null to read without the cache.
     *
     * @param ownWrites the tables the session's begun transaction has written, or null outside one
     */
    Answer read(Request r, SqlAnalysis a, SessionTails tails, String user, Set<String> ownWrites) throws SQLException;

    /** Forgets what a write may have changed ({@link Touch#ofWrite}; null: anything); inside the write ordering. */
    void invalidate(List<Touch> writes);

    /** Whether there is a cache to invalidate (transactions then collect what their writes touch). */
    boolean caches();

    /** The cache's counters, or null without a cache. */
    CacheStatistics statistics();

    /** Operator action: empty the cache. */
    void flush();

    CacheStage NONE = new CacheStage() {
        @Override
        public Answer read(Request r, SqlAnalysis a, SessionTails tails, String user, Set<String> ownWrites) {
            return null;
        }

        @Override
        public void invalidate(List<Touch> writes) {
        }

        @Override
        public boolean caches() {
            return false;
        }

        @Override
        public CacheStatistics statistics() {
            return null;
        }

        @Override
        public void flush() {
        }
    };
}
