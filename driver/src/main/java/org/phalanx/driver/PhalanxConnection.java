package org.phalanx.driver;

import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.phalanx.protocol.HelloOk;
import org.phalanx.protocol.Protocol;

/**
 * java.sql.Connection over a {@link ProtocolConnection} to a controller's virtual database; with
 * several hosts in its URL, over the next one's when its controller fails ({@link Failover}).
 */
public final class PhalanxConnection implements Connection {
    /** Numbers the unnamed savepoints of this connection. */
    private int savepoints;
    private volatile ProtocolConnection protocol;
    private final ConnectionUrl url;
    private final boolean failover;
    private final SessionStatements session = new SessionStatements();
    private final int defaultFetchSize;
    private final Set<PhalanxStatement> openStatements = ConcurrentHashMap.newKeySet();
    private final Properties clientInfo = new Properties();
    private volatile boolean closed;
    private boolean autoCommit = true;
    private boolean readOnly;
    private int isolation;
    /** A statement ran since the last commit, rollback or auto-commit switch: a transaction may be open. */
    private boolean transactionStarted;
    /** With readOnlyRouting=followers, the session read-only work runs on; else null. */
    private final FollowerSession followerSession;
    private PhalanxDatabaseMetaData metaData;

    PhalanxConnection(ProtocolConnection protocol, ConnectionUrl url) throws SQLException {
        this.protocol = protocol;
        this.url = url;
        this.failover = url.failover();
        this.defaultFetchSize = url.intProperty(ConnectionUrl.FETCH_SIZE, 0);
        this.isolation = protocol.hello().defaultIsolation();
        this.readOnly = url.readOnly(); // the controller opened the session read-only already (HELLO carries it)
        this.followerSession = FollowerSession.of(url);
    }

    /** The session's level changed by SQL ({@code SET TRANSACTION ISOLATION LEVEL ...}): the controller has it already. */
    void isolationSetBySql(int level) {
        isolation = level;
    }

    ProtocolConnection protocol() {
        return protocol;
    }

    /** Notes a statement that ran, for a failover to rebuild the session ({@link SessionStatements}). */
    void ran(String sql) {
        if (failover || followerSession != null) {
            session.ran(sql);
        }
    }

    /** Whether sending {@code sql} again after a failover is safe. */
    Failover.Exchange exchangeOf(String sql) {
        return failover && autoCommit && SessionStatements.isPlainRead(sql) ? Failover.Exchange.READ : Failover.Exchange.WRITE;
    }

    /** Runs a request on the controller; if the connection to it breaks, goes on with another ({@link Failover}). */
    <T> T call(Failover.Exchange exchange, Failover.Call<T> call) throws SQLException {
        return call(exchange, call, null);
    }

    /**
     * As {@link #call(Failover.Exchange, Failover.Call)}; for a write in auto-commit or a commit
     * lost with its controller, the next controller is asked whether it was applied
     * ({@link Failover}): if so, {@code ifApplied} makes the request's result from the answer;
     * if not, a write is sent again and a commit reports its transaction lost.
     *
     * @param ifApplied null when the result cannot be made so (a query)
     */
    <T> T call(Failover.Exchange exchange, Failover.Call<T> call, Failover.IfApplied<T> ifApplied) throws SQLException {
        ProtocolConnection p = protocol;
        if (failover && !closed && !p.isUsable()) {
            p = reconnect(p, new ArrayList<>()); // lost before this request was sent: nothing of it to report
        }
        boolean inTransaction = !autoCommit;
        if (inTransaction && (exchange == Failover.Exchange.READ || exchange == Failover.Exchange.WRITE)) {
            transactionStarted = true;
        }
        try {
            return call.run(p);
        } catch (SQLException e) {
            if (!failover && !closed && p.brokenAfterSending() && (exchange == Failover.Exchange.COMMIT
                    || exchange == Failover.Exchange.WRITE && !inTransaction)) {
                // no other controller to ask: the write or commit it had received may have been carried out
                SQLException unknown = Failover.outcomeUnknown(exchange == Failover.Exchange.COMMIT ? "commit" : "statement",
                        e.getMessage());
                unknown.initCause(e);
                throw unknown;
            }
            if (!failover || closed || !p.isBroken()) {
                throw e;
            }
            ProtocolConnection next;
            List<ConnectionUrl.HostAndPort> lostHosts = new ArrayList<>();
            try {
                next = reconnect(p, lostHosts);
            } catch (SQLException none) {
                none.addSuppressed(e);
                throw none;
            }
            String lost = "controller " + p.address() + " failed; the connection goes on with " + next.address();
            String what = exchange == Failover.Exchange.COMMIT ? "commit" : "statement";
            if (ifApplied != null && (exchange == Failover.Exchange.COMMIT
                    || exchange == Failover.Exchange.WRITE && !inTransaction)) {
                ProtocolConnection.Applied applied;
                try {
                    applied = next.outcome(p);
                } catch (SQLException answer) {
                    if (answer.getErrorCode() != Protocol.REQUEST_NOT_APPLIED) {
                        throw Failover.outcomeUnknown(what, lost + " (" + answer.getMessage() + ")");
                    }
                    if (exchange == Failover.Exchange.COMMIT) {
                        throw Failover.transactionLost(lost);
                    }
                    if (session.takeUnrebuildable()) {
                        throw Failover.sessionStateLost(lost);
                    }
                    return call.run(next); // never applied: sent again
                }
                if (applied.updateCount() != null && applied.updateCount().count() < 0
                        && exchange == Failover.Exchange.WRITE) {
                    throw Failover.appliedCountUnknown(lost);
                }
                return ifApplied.result(applied, lost);
            }
            if (exchange == Failover.Exchange.COMMIT) {
                throw Failover.outcomeUnknown("commit", lost);
            }
            if (inTransaction && exchange != Failover.Exchange.ROLLBACK) {
                throw Failover.transactionLost(lost);
            }
            if (session.takeUnrebuildable()) {
                throw Failover.sessionStateLost(lost);
            }
            if (exchange == Failover.Exchange.WRITE) {
                throw Failover.outcomeUnknown("statement", lost);
            }
            return resent(call, next, lostHosts);
        }
    }

    /**
     * Sends a request that is safe to send again on {@code next}; if that controller fails too (a
     * follower closes its read-only sessions when it becomes the primary), on the one after, until
     * the failover timeout.
     */
    private <T> T resent(Failover.Call<T> call, ProtocolConnection next, List<ConnectionUrl.HostAndPort> lostHosts)
            throws SQLException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(failoverTimeoutMillis());
        while (true) {
            try {
                return call.run(next);
            } catch (SQLException e) {
                if (closed || !next.isBroken() || System.nanoTime() > deadline) {
                    throw e;
                }
                next = reconnect(next, lostHosts);
            }
        }
    }

    private int failoverTimeoutMillis() throws SQLException {
        return url.intProperty(ConnectionUrl.FAILOVER_TIMEOUT, ConnectionUrl.DEFAULT_FAILOVER_TIMEOUT_MS);
    }

    /**
     * Connects to the next controller and puts the session's state back there; a controller that
     * fails meanwhile is passed over, until the failover timeout.
     *
     * @param lost the controllers this failover lost so far, oldest first: tried last; {@code failed}'s is added
     */
    private synchronized ProtocolConnection reconnect(ProtocolConnection failed, List<ConnectionUrl.HostAndPort> lost)
            throws SQLException {
        if (protocol != failed) {
            return protocol; // another thread already did
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(failoverTimeoutMillis());
        lost.add(failed.address());
        while (true) {
            ProtocolConnection next = ProtocolConnection.open(
                    followerSession == null ? url : followerSession.urlInUse(url), lost);
            try {
                rebuildSession(next);
            } catch (SQLException e) {
                next.abort();
                if (!next.isBroken() || System.nanoTime() > deadline) {
                    throw e;
                }
                lost.add(next.address());
                continue;
            }
            failed.abort();
            protocol = next;
            return next;
        }
    }

    /** Puts this session's state on a new controller connection. */
    private void rebuildSession(ProtocolConnection next) throws SQLException {
        if (!autoCommit) {
            next.setAutoCommit(false);
        }
        if (isolation != next.hello().defaultIsolation()) {
            next.setIsolation(isolation);
        }
        if (readOnly) {
            next.setReadOnly(true);
        }
        for (String command : session.commands()) {
            next.execute(sessionCommand(command));
        }
    }

    ConnectionUrl url() {
        return url;
    }

    int defaultFetchSize() {
        return defaultFetchSize;
    }

    HelloOk hello() {
        return protocol.hello();
    }

    /** The controller's id for this session (useful in controller logs). */
    public long getSessionId() {
        return protocol.hello().sessionId();
    }

    void checkOpen() throws SQLException {
        if (closed) {
            throw SqlExceptions.connectionClosed();
        }
    }

    void statementClosed(PhalanxStatement statement) {
        openStatements.remove(statement);
    }

    // ---- statements -------------------------------------------------------------------------

    @Override
    public Statement createStatement() throws SQLException {
        return createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
        return createStatement(resultSetType, resultSetConcurrency, ResultSet.CLOSE_CURSORS_AT_COMMIT);
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        checkOpen();
        checkResultSetOptions(resultSetType, resultSetConcurrency, resultSetHoldability);
        return register(new PhalanxStatement(this, resultSetType));
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        return prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency)
            throws SQLException {
        return prepareStatement(sql, resultSetType, resultSetConcurrency, ResultSet.CLOSE_CURSORS_AT_COMMIT);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency,
                                              int resultSetHoldability) throws SQLException {
        checkOpen();
        checkResultSetOptions(resultSetType, resultSetConcurrency, resultSetHoldability);
        return register(new PhalanxPreparedStatement(this, sql, resultSetType, GeneratedKeys.NONE));
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        checkOpen();
        return register(new PhalanxPreparedStatement(this, sql, ResultSet.TYPE_FORWARD_ONLY,
                GeneratedKeys.of(autoGeneratedKeys)));
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        checkOpen();
        throw SqlExceptions.notSupported("generated keys by column index");
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        checkOpen();
        return register(new PhalanxPreparedStatement(this, sql, ResultSet.TYPE_FORWARD_ONLY,
                GeneratedKeys.named(columnNames)));
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        checkOpen();
        return CallableStatements.of(this, sql);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
        return prepareCall(sql);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency,
                                         int resultSetHoldability) throws SQLException {
        return prepareCall(sql);
    }

    private <S extends PhalanxStatement> S register(S statement) {
        openStatements.add(statement);
        return statement;
    }

    private static void checkResultSetOptions(int type, int concurrency, int holdability) throws SQLException {
        if (type != ResultSet.TYPE_FORWARD_ONLY && type != ResultSet.TYPE_SCROLL_INSENSITIVE) {
            if (type == ResultSet.TYPE_SCROLL_SENSITIVE) {
                throw SqlExceptions.notSupported("TYPE_SCROLL_SENSITIVE result sets");
            }
            throw SqlExceptions.create("invalid result set type " + type, SqlExceptions.INVALID_ARGUMENT);
        }
        if (concurrency != ResultSet.CONCUR_READ_ONLY) {
            if (concurrency == ResultSet.CONCUR_UPDATABLE) {
                throw SqlExceptions.notSupported("CONCUR_UPDATABLE result sets");
            }
            throw SqlExceptions.create("invalid result set concurrency " + concurrency, SqlExceptions.INVALID_ARGUMENT);
        }
        checkHoldability(holdability);
    }

    private static void checkHoldability(int holdability) throws SQLException {
        if (holdability == ResultSet.HOLD_CURSORS_OVER_COMMIT) {
            throw SqlExceptions.notSupported("HOLD_CURSORS_OVER_COMMIT");
        }
        if (holdability != ResultSet.CLOSE_CURSORS_AT_COMMIT) {
            throw SqlExceptions.create("invalid holdability " + holdability, SqlExceptions.INVALID_ARGUMENT);
        }
    }

    @Override
    public String nativeSQL(String sql) throws SQLException {
        checkOpen();
        return sql; // no escape processing: the SQL goes to the backends as written
    }

    // ---- transactions -----------------------------------------------------------------------

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        checkOpen();
        if (autoCommit != this.autoCommit) {
            // The controller commits an open transaction when auto-commit is switched on, as JDBC requires.
            call(autoCommit ? Failover.Exchange.COMMIT : Failover.Exchange.SETTING, p -> {
                p.setAutoCommit(autoCommit);
                return null;
            }, (committed, lost) -> null);
            this.autoCommit = autoCommit;
            transactionStarted = false;
        }
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        checkOpen();
        return autoCommit;
    }

    /** commit() or rollback() in auto-commit mode, as the engine's driver refuses it (pgjdbc: 25P01). */
    private SQLException noTransaction(String what) {
        return SqlExceptions.create("cannot " + what + ": the connection is in auto-commit mode",
                isPostgreSql() ? SqlExceptions.NO_ACTIVE_SQL_TRANSACTION : SqlExceptions.INVALID_TRANSACTION_STATE);
    }

    @Override
    public void commit() throws SQLException {
        checkOpen();
        if (autoCommit) {
            if (IdentifierCase.isMariaDb(hello().productName())) {
                return; // as MariaDB Connector/J: nothing to commit
            }
            throw noTransaction("commit");
        }
        transactionStarted = false; // a failed commit ends the transaction too
        call(Failover.Exchange.COMMIT, p -> {
            p.commit();
            return null;
        }, (committed, lost) -> null);
    }

    @Override
    public void rollback() throws SQLException {
        checkOpen();
        if (autoCommit) {
            if (IdentifierCase.isMariaDb(hello().productName())) {
                return; // as MariaDB Connector/J: nothing to roll back
            }
            throw noTransaction("roll back");
        }
        transactionStarted = false;
        call(Failover.Exchange.ROLLBACK, p -> {
            p.rollback();
            return null;
        });
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        checkOpen();
        switch (level) {
            case TRANSACTION_READ_UNCOMMITTED, TRANSACTION_READ_COMMITTED, TRANSACTION_REPEATABLE_READ,
                    TRANSACTION_SERIALIZABLE -> {
                if (level != isolation) {
                    call(Failover.Exchange.SETTING, p -> {
                        p.setIsolation(level);
                        return null;
                    });
                    isolation = level;
                }
            }
            default -> throw SqlExceptions.create("invalid transaction isolation level " + level,
                    SqlExceptions.INVALID_ARGUMENT);
        }
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        checkOpen();
        return isolation;
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        if (readOnly == this.readOnly) {
            return;
        }
        // a session with temporary tables or advisory locks stays on the primary: a follower has none of them
        if (followerSession != null && (followerSession.inUse() || !session.madeUnrebuildableState())) {
            if (transactionStarted) { // as the controller says when asked
                throw SqlExceptions.create("cannot change the read-only property inside a transaction",
                        SqlExceptions.ACTIVE_SQL_TRANSACTION);
            }
            this.readOnly = readOnly; // before the switch: a failover on the way rebuilds the session as it is now
            switchSessions();
            return;
        }
        call(Failover.Exchange.SETTING, p -> {
            p.setReadOnly(readOnly);
            return null;
        });
        this.readOnly = readOnly;
    }

    /**
     * Goes on with the other session ({@link FollowerSession}), telling it what changed since it was
     * last in use: auto-commit, isolation and the session commands run meanwhile.
     */
    private void switchSessions() throws SQLException {
        List<String> commands = session.commands();
        FollowerSession.Parked next = followerSession.swap(protocol,
                new FollowerSession.Settings(autoCommit, isolation, commands.size()));
        protocol = next.protocol();
        FollowerSession.Settings had = next.settings();
        if (had.autoCommit() != autoCommit) {
            call(Failover.Exchange.SETTING, p -> {
                p.setAutoCommit(autoCommit);
                return null;
            });
        }
        if (had.isolation() != isolation) {
            call(Failover.Exchange.SETTING, p -> {
                p.setIsolation(isolation);
                return null;
            });
        }
        for (String command : commands.subList(had.commandsRun(), commands.size())) {
            call(Failover.Exchange.SETTING, p -> {
                p.execute(sessionCommand(command));
                return null;
            });
        }
    }

    private static org.phalanx.protocol.Execute sessionCommand(String sql) {
        return new org.phalanx.protocol.Execute(org.phalanx.protocol.Execute.ANY, sql, List.of(),
                org.phalanx.protocol.Execute.NO_KEYS, List.of(), 0, 0, 0, false);
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        checkOpen();
        return readOnly;
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        PhalanxSavepoint s = PhalanxSavepoint.unnamed(++savepoints);
        runSavepointStatement("SAVEPOINT " + s.identifier());
        return s;
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        PhalanxSavepoint s = PhalanxSavepoint.named(name);
        runSavepointStatement("SAVEPOINT " + s.identifier());
        return s;
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        runSavepointStatement("ROLLBACK TO SAVEPOINT " + stillHeld(savepoint).identifier());
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        PhalanxSavepoint released = stillHeld(savepoint);
        runSavepointStatement("RELEASE SAVEPOINT " + released.identifier());
        released.released();
    }

    /**
     * The savepoint, refused once released where pgjdbc refuses it (3B000, before anything is sent):
     * PostgreSQL would abort the transaction for the unknown savepoint, and its commit would then
     * silently keep nothing. Elsewhere the backend answers, as Connector/J lets it.
     */
    private PhalanxSavepoint stillHeld(Savepoint savepoint) throws SQLException {
        PhalanxSavepoint s = PhalanxSavepoint.of(savepoint);
        if (s.isReleased() && isPostgreSql()) {
            throw new SQLException("Cannot reference a savepoint after it has been released.", "3B000");
        }
        return s;
    }

    /** A savepoint statement, inside a transaction only (as the JDBC contract says). */
    private void runSavepointStatement(String sql) throws SQLException {
        checkOpen();
        if (getAutoCommit()) {
            throw new SQLException("savepoints need a transaction: auto-commit is on", "25P01");
        }
        try (Statement st = createStatement()) {
            st.execute(sql);
        }
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        checkOpen();
        checkHoldability(holdability);
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return ResultSet.CLOSE_CURSORS_AT_COMMIT;
    }

    // ---- life cycle -------------------------------------------------------------------------

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        // The controller frees every cursor of the session on CLOSE, so statements close locally only.
        for (PhalanxStatement s : List.copyOf(openStatements)) {
            s.closeLocally();
        }
        openStatements.clear();
        protocol.close();
        ProtocolConnection other = followerSession == null ? null : followerSession.parkedProtocol();
        if (other != null) {
            other.close();
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public boolean isValid(int timeout) throws SQLException {
        if (timeout < 0) {
            throw SqlExceptions.create("timeout must not be negative", SqlExceptions.INVALID_ARGUMENT);
        }
        if (closed || !protocol.isUsable()) {
            return false;
        }
        try {
            protocol.ping(timeout * 1000);
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    @Override
    public void abort(Executor executor) throws SQLException {
        if (executor == null) {
            throw SqlExceptions.create("abort needs an executor", SqlExceptions.INVALID_ARGUMENT);
        }
        if (closed) {
            return;
        }
        closed = true;
        for (PhalanxStatement s : List.copyOf(openStatements)) {
            s.closeLocally();
        }
        openStatements.clear();
        ProtocolConnection active = protocol;
        ProtocolConnection other = followerSession == null ? null : followerSession.parkedProtocol();
        executor.execute(() -> {
            active.abort();
            if (other != null) {
                other.abort();
            }
        });
    }

    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        checkOpen();
        if (milliseconds < 0) {
            throw SqlExceptions.create("network timeout must not be negative", SqlExceptions.INVALID_ARGUMENT);
        }
        protocol.setSocketTimeout(milliseconds);
        ProtocolConnection other = followerSession == null ? null : followerSession.parkedProtocol();
        if (other != null) {
            other.setSocketTimeout(milliseconds);
        }
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        checkOpen();
        return protocol.getSocketTimeout();
    }

    // ---- metadata, warnings, misc -----------------------------------------------------------

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        checkOpen();
        if (metaData == null) {
            metaData = new PhalanxDatabaseMetaData(this);
        }
        return metaData;
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return null; // the protocol carries no warnings
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
    }

    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkOpen(); // a virtual database is its one catalog: nothing to switch to (JDBC: ignored)
    }

    /** The virtual database's name: the catalog its metadata reports and accepts (docs/jdbc-unsupported.md). */
    @Override
    public String getCatalog() throws SQLException {
        checkOpen();
        return url.vdb();
    }

    /**
     * As the backends' own driver answers: on PostgreSQL the current schema, the first of the
     * search path ({@code current_schema()}, as pgjdbc asks); MariaDB's and SQLite's drivers report
     * none. Tools take it for where their tables are: Liquibase, given none, looks its history table
     * up in no schema, finds it in "public" and takes that for another table.
     */
    @Override
    public String getSchema() throws SQLException {
        checkOpen();
        if (!isPostgreSql()) {
            return null;
        }
        try (Statement s = createStatement(); ResultSet rs = s.executeQuery("SELECT current_schema()")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    /** On PostgreSQL the search path becomes that schema, as pgjdbc sets it; ignored elsewhere, as their drivers do. */
    @Override
    public void setSchema(String schema) throws SQLException {
        checkOpen();
        if (isPostgreSql() && schema != null) {
            try (Statement s = createStatement()) {
                s.execute("SET SESSION search_path TO '" + schema.replace("'", "''") + "'");
            }
        }
    }

    boolean isPostgreSql() {
        return "PostgreSQL".equalsIgnoreCase(hello().productName());
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        checkOpen();
        return Collections.emptyMap();
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        checkOpen();
        if (map != null && !map.isEmpty()) {
            throw SqlExceptions.notSupported("custom type maps");
        }
    }

    @Override
    public Clob createClob() throws SQLException {
        checkOpen();
        return new MemoryClob("");
    }

    @Override
    public Blob createBlob() throws SQLException {
        checkOpen();
        return new MemoryBlob(new byte[0]);
    }

    @Override
    public NClob createNClob() throws SQLException {
        checkOpen();
        return new MemoryClob("");
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        checkOpen();
        throw SqlExceptions.notSupported("SQLXML");
    }

    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        checkOpen();
        if (!isPostgreSql()) {
            throw SqlExceptions.notSupported("SQL ARRAY values on " + hello().productName() + " (arrays are PostgreSQL's)");
        }
        if (typeName == null || elements == null) {
            throw SqlExceptions.create("createArrayOf needs a type name and elements", SqlExceptions.INVALID_ARGUMENT);
        }
        return PhalanxArray.of(typeName, elements);
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        checkOpen();
        throw SqlExceptions.notSupported("SQL STRUCT values");
    }

    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        if (closed) {
            throw new SQLClientInfoException("connection is closed", SqlExceptions.CONNECTION_CLOSED, 0, Map.of());
        }
        if (value == null) {
            clientInfo.remove(name);
        } else {
            clientInfo.setProperty(name, value);
        }
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        if (closed) {
            throw new SQLClientInfoException("connection is closed", SqlExceptions.CONNECTION_CLOSED, 0, Map.of());
        }
        clientInfo.clear();
        if (properties != null) {
            for (String name : properties.stringPropertyNames()) {
                clientInfo.setProperty(name, properties.getProperty(name));
            }
        }
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        checkOpen();
        return clientInfo.getProperty(name);
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        checkOpen();
        Properties copy = new Properties();
        copy.putAll(clientInfo);
        return copy;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return SqlExceptions.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    @Override
    public String toString() {
        return "PhalanxConnection[" + protocol.address() + "/" + url.vdb() + ", session " + getSessionId() + "]";
    }
}
