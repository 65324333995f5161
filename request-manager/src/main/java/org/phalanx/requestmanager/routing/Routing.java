package org.phalanx.requestmanager.routing;

import java.sql.SQLException;
import java.util.List;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.backend.Backend;

/**
 * The replication level as a strategy: which backends can serve a read and which must apply a
 * write. Balancing and wait policies are chosen independently of it.
 */
public interface Routing {

    /** @throws SQLException when no enabled backend can serve the read */
    ReadRoute read(SqlAnalysis analysis, List<Backend> enabled) throws SQLException;

    /** @throws SQLException when the write cannot be applied anywhere (or only partly) */
    List<Backend> writeTargets(SqlAnalysis analysis, List<Backend> enabled) throws SQLException;

    /**
     * A DDL statement succeeded on a backend: follow its effect on the schema. Returns what undoes
     * that (run if the transaction rolls back), or null if nothing changed.
     */
    Runnable applied(Backend backend, SqlAnalysis analysis);

    /** Full replication and SingleDB: every enabled backend holds everything. */
    Routing EVERYWHERE = new Routing() {
        @Override
        public ReadRoute read(SqlAnalysis analysis, List<Backend> enabled) {
            return new ReadRoute(enabled, true);
        }

        @Override
        public List<Backend> writeTargets(SqlAnalysis analysis, List<Backend> enabled) {
            return enabled;
        }

        @Override
        public Runnable applied(Backend backend, SqlAnalysis analysis) {
            return null;
        }
    };
}
