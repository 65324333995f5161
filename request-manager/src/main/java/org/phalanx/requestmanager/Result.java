package org.phalanx.requestmanager;

import java.sql.ResultSet;
import java.sql.SQLException;

/** What executing a {@link Request} produced. */
public sealed interface Result extends AutoCloseable permits Result.Rows, Result.UpdateCount {

    @Override
    void close() throws SQLException;

    /**
     * Rows, read live from a backend: the caller pages through {@link #resultSet()} and must
     * {@link #close()} it, which releases the backend connection it holds.
     */
    final class Rows implements Result {
        private final ResultSet resultSet;
        private final AutoCloseable release;

        public Rows(ResultSet resultSet, AutoCloseable release) {
            this.resultSet = resultSet;
            this.release = release;
        }

        public ResultSet resultSet() {
            return resultSet;
        }

        @Override
        public void close() throws SQLException {
            try {
                release.close();
            } catch (SQLException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new SQLException(e.getMessage(), e);
            }
        }
    }

    /** An update count, with the generated keys (detached from any connection) if asked for. */
    record UpdateCount(long count, ResultSet generatedKeys) implements Result {
        @Override
        public void close() throws SQLException {
            if (generatedKeys != null) {
                generatedKeys.close();
            }
        }
    }
}
