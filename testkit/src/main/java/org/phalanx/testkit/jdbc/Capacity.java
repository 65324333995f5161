package org.phalanx.testkit.jdbc;

import java.sql.SQLException;

/**
 * How much a backend can run at once and for how long a statement occupies it: unlimited (the
 * real database decides, as for fault injection) or an {@link EmulatedServer}.
 */
interface Capacity {
    /** No emulation: calls run at once, on the caller's thread, with no bookkeeping. */
    Capacity UNLIMITED = new Capacity() {
        @Override
        public <T> T execute(String sql, int times, RealCall<T> call) throws SQLException {
            return call.call();
        }

        @Override
        public <T> T prepare(RealCall<T> call) throws SQLException {
            return call.call();
        }
    };

    /**
     * Runs a statement execution ({@code times} for a batch) or a commit/rollback
     * ({@link CostModel#COMMIT}, {@link CostModel#ROLLBACK} as {@code sql}).
     */
    <T> T execute(String sql, int times, RealCall<T> call) throws SQLException;

    /** Runs the preparation of a statement: the engine's work, but outside the execution slots. */
    <T> T prepare(RealCall<T> call) throws SQLException;
}
