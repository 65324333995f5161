package org.phalanx.requestmanager.api;

import java.sql.SQLException;
import java.util.List;

/**
 * One client connection's view of the virtual database: its transaction state and its
 * requests. Used by one thread at a time (the controller's connection handler).
 */
public interface Session extends AutoCloseable {

    String virtualUser();

    boolean getAutoCommit();

    /** Turning auto-commit on with a transaction open commits it (as JDBC says). */
    void setAutoCommit(boolean autoCommit) throws SQLException;

    void commit() throws SQLException;

    void rollback() throws SQLException;

    /** Applied to the backend connections this session's transactions use. */
    void setTransactionIsolation(int level) throws SQLException;

    int getTransactionIsolation();

    /**
     * The client JVM's time zone id, told once at login: a session over PostgreSQL backends takes it
     * as its {@code TimeZone} when it is not the controller's, as pgjdbc starts a session in its JVM's.
     */
    default void clientTimeZone(String zoneId) {
    }

    /** A read-only session refuses writes with SQLState 25006. */
    void setReadOnly(boolean readOnly) throws SQLException;

    Result execute(Request request) throws SQLException;

    /**
     * The client's id of the request about to be served (null: none): the auto-commit statement or
     * commit it logs carries it ({@link RequestId}). A session that logs nothing ignores it.
     */
    default void requestId(RequestId id) {
    }

    /**
     * Runs the same statement once per parameter set, in order. On failure throws
     * {@link java.sql.BatchUpdateException} carrying the counts of the elements before it.
     *
     * @param keyColumns generated keys wanted: null for none, empty for the driver's choice, else these columns
     */
    BatchOutcome executeBatch(String sql, List<List<Object>> parameterSets, List<String> keyColumns,
                              int queryTimeoutSeconds) throws SQLException;

    /** Runs the statements in order; failure as in {@link #executeBatch(String, List, List, int)}. */
    long[] executeBatch(List<String> statements, int queryTimeoutSeconds) throws SQLException;

    /**
     * Answers a DatabaseMetaData method (getTables, getColumns, getPrimaryKeys, getIndexInfo,
     * getImportedKeys, getExportedKeys, getTypeInfo, getSchemas, getCatalogs, getTableTypes)
     * from the virtual database's schema. Arguments as in the JDBC method; String[] as a
     * comma-separated String.
     */
    Result.Cached metadata(String method, List<Object> args) throws SQLException;

    /** Rolls back what is open and releases backend connections. */
    @Override
    void close();
}
