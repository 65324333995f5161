package org.phalanx.requestmanager.api;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;

/** What executing a {@link Request} produced. */
public sealed interface Result extends AutoCloseable permits Result.Rows, Result.Cached, Result.UpdateCount {

    @Override
    void close() throws SQLException;

    /**
     * Rows, read live from a backend: the caller pages through {@link #resultSet()} and must
     * {@link #close()} it, which releases the backend connection it holds.
     */
    final class Rows implements Result {
        private final ResultSet resultSet;
        private final AutoCloseable release;
        private final List<Object[]> prefix;
        private final ResultSetMetaData description;

        public Rows(ResultSet resultSet, AutoCloseable release) {
            this(resultSet, release, List.of(), null);
        }

        /**
         * @param prefix      rows already read from the result set (as {@link org.phalanx.requestmanager.api.RowReader} values), to send first
         * @param description the result set's metadata, detached (known from an earlier run of the
         *                    statement), or null to ask the result set
         */
        public Rows(ResultSet resultSet, AutoCloseable release, List<Object[]> prefix, ResultSetMetaData description) {
            this.resultSet = resultSet;
            this.release = release;
            this.prefix = prefix;
            this.description = description;
        }

        public ResultSet resultSet() {
            return resultSet;
        }

        /** What the rows look like. */
        public ResultSetMetaData metaData() throws SQLException {
            return description != null ? description : resultSet.getMetaData();
        }

        /** What the rows look like, usable once the result set is closed. */
        public ResultSetMetaData detachedMetaData() throws SQLException {
            return description != null ? description : RowReader.detach(resultSet.getMetaData());
        }

        public List<Object[]> prefix() {
            return prefix;
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

    /**
     * Rows held in memory (a result cache hit): values as {@link org.phalanx.requestmanager.api.RowReader}
     * produces them, shared with the cache, so never modified.
     */
    record Cached(ResultSetMetaData metaData, List<Object[]> rows) implements Result {
        @Override
        public void close() {
        }
    }

    /** An update count, with the generated keys (detached from any connection) if asked for. */
    record UpdateCount(long count, Cached generatedKeys) implements Result {
        @Override
        public void close() {
        }
    }
}
