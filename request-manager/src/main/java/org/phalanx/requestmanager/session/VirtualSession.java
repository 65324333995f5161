package org.phalanx.requestmanager.session;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.engine.Engine;
import org.phalanx.engine.Isolation;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.analysis.LastInsertId;
import org.phalanx.requestmanager.analysis.PooledSessionCalls;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.StatementKind;
import org.phalanx.requestmanager.routing.DeclaredDialectReads;
import org.phalanx.requestmanager.api.BatchOutcome;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.RequestId;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.QueryTimeouts;
import org.phalanx.requestmanager.cache.CacheStage;
import org.phalanx.requestmanager.exec.StatementRunner;
import org.phalanx.requestmanager.pipeline.Pipeline;
import org.phalanx.requestmanager.pipeline.SessionState;
import org.phalanx.requestmanager.pipeline.Transaction;
import org.phalanx.requestmanager.read.ReadStage;
import org.phalanx.requestmanager.write.TransactionControl;
import org.phalanx.requestmanager.write.WriteStage;

/**
 * One client connection: its transaction settings, and the dispatch of each statement, once
 * analysed, to the stage that handles its kind (reads, writes, transaction demarcation). Methods
 * are synchronized so a shutdown closing the session waits for the request in progress.
 */
final class VirtualSession implements Session {
    private static final Logger LOG = LogManager.getLogger(VirtualSession.class);
    private final Pipeline p;
    private final ReadStage reads;
    private final WriteStage writes;
    private final TransactionControl transactions;
    private final Sessions registry;
    private final AdvisoryLocks advisoryLocks;
    private final SessionState state;
    private final VirtualCatalog catalog;
    private final TemporaryTables temporaries;
    /** The transaction was opened by a BEGIN statement: COMMIT/ROLLBACK restore auto-commit. */
    private boolean begunBySql;
    /** The session was made read-only by {@code BEGIN READ ONLY}, for its transaction only. */
    private boolean readOnlyUntilEnd;
    private boolean closed;
    /**
     * The {@code SET TIME ZONE} giving the session its client's zone ({@link ClientTimeZone}), or null:
     * a reset of the time zone goes back to it, as PostgreSQL goes back to the zone pgjdbc started with.
     */
    private String clientTimeZone;

    VirtualSession(Pipeline p, ReadStage reads, WriteStage writes, TransactionControl transactions, Sessions registry,
                   AdvisoryLocks advisoryLocks, String user, int isolation) {
        this.advisoryLocks = advisoryLocks;
        this.p = p;
        this.reads = reads;
        this.writes = writes;
        this.transactions = transactions;
        this.registry = registry;
        this.state = new SessionState(user, isolation);
        this.catalog = registry.catalog();
        this.temporaries = new TemporaryTables(p, reads, state);
    }

    @Override
    public synchronized void clientTimeZone(String zoneId) {
        String set = p.backends().allSpeak(Engine.POSTGRESQL) ? ClientTimeZone.setStatement(zoneId) : null;
        if (set == null) {
            return;
        }
        try {
            SessionParameters.run(p, state, Request.of(set), reads);
            clientTimeZone = set;
        } catch (SQLException e) {
            LOG.warn("session of {}: the client's time zone {} was not set ({}): its wall-clock times are the"
                    + " controller's", state.user(), zoneId, e.getMessage());
        }
    }

    /** Runs a session command; a reset of the time zone goes back to the client's. */
    private void runSessionCommand(Request r) throws SQLException {
        SessionParameters.run(p, state, r, reads);
        if (clientTimeZone != null && state.settings().statement("timezone") == null) {
            SessionParameters.run(p, state, Request.of(clientTimeZone), reads);
        }
    }

    @Override
    public String virtualUser() {
        return state.user();
    }

    @Override
    public synchronized boolean getAutoCommit() {
        return state.autoCommit();
    }

    @Override
    public synchronized void setAutoCommit(boolean on) throws SQLException {
        checkOpen();
        if (on && !state.autoCommit()) {
            Transaction t = state.transaction();
            if (t != null && t.doomed() != null) {
                rollback(); // as pgjdbc: its COMMIT of a failed transaction rolls back, and auto-commit is on
            } else {
                commit();
            }
        }
        state.autoCommit(on);
        begunBySql = false;
    }

    @Override
    public synchronized void setTransactionIsolation(int level) throws SQLException {
        checkOpen();
        if (!Isolation.isLevel(level)) {
            throw new SQLException("transaction isolation level " + level + " does not exist",
                    SqlState.INVALID_PARAMETER_VALUE.code());
        }
        if (state.inTransaction()) {
            throw new SQLException("cannot change the isolation level inside a transaction",
                    SqlState.ACTIVE_SQL_TRANSACTION.code());
        }
        state.isolation(level); // READ UNCOMMITTED gets READ COMMITTED, as on PostgreSQL
    }

    @Override
    public synchronized int getTransactionIsolation() {
        return state.isolation();
    }

    @Override
    public synchronized void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        if (readOnly != state.readOnly() && state.inTransaction()) {
            // as PostgreSQL: a transaction is read-only or not from its start to its end
            throw new SQLException("cannot change the read-only property inside a transaction",
                    SqlState.ACTIVE_SQL_TRANSACTION.code());
        }
        state.readOnly(readOnly);
    }

    @Override
    public synchronized Result execute(Request asked) throws SQLException {
        checkOpen();
        Request r = asked;
        LastInsertId lastInsertId = p.backends().lastInsertId();
        if (lastInsertId != null && lastInsertId.mentioned(r.sql())) {
            r = r.withSql(lastInsertId.substitute(r.sql(), state.lastInsertId())); // this session's, not a pooled connection's
        }
        // the keys the controller chose for this session
        String known = state.sequenceValues().substitute(r.sql(), p.backends().allSpeak(Engine.POSTGRESQL));
        if (!known.equals(r.sql())) {
            r = r.withSql(known);
        }
        String refused = PooledSessionCalls.refused(r.sql(), p.backends()::dialects, state.begunTransaction() != null);
        if (refused != null) {
            p.statistics().error();
            throw new SQLFeatureNotSupportedException(refused + (refused.contains(" ") ? "" : "()")
                    + " answers about the backend connection that runs it, and"
                    + " Phalanx runs a session's statements on pooled connections other clients use too (docs/jdbc-unsupported.md):"
                    + " use the update count, a COUNT(*), INSERT ... RETURNING or the value nextval() returned"
                    + ("currval".equals(refused) || "lastval".equals(refused) || refused.contains(" ")
                            ? "; inside a transaction, after its first write, it answers for the transaction's own connections" : ""),
                    SqlState.FEATURE_NOT_SUPPORTED.code());
        }
        if (r.wantsKeys()) {
            askingKeys(r.keyColumns());
        }
        long start = System.nanoTime();
        boolean answeredFromCache = false;
        boolean failed = true;
        try {
            java.util.OptionalInt level = Isolation.ofSetStatement(r.sql());
            if (level.isPresent()) {
                setTransactionIsolation(level.getAsInt()); // for the session, as the JDBC call
                failed = false;
                return new Result.UpdateCount(0, null);
            }
            Boolean readOnlyByDefault = sessionReadOnly(r.sql());
            if (readOnlyByDefault != null) {
                setReadOnly(readOnlyByDefault); // for the session, as the JDBC call
                failed = false;
                return new Result.UpdateCount(0, null);
            }
            SetConfigCall setConfig = p.backends().allSpeak(Engine.POSTGRESQL) && SetConfigCall.mentioned(r.sql())
                    ? SetConfigCall.parse(r.sql(), r.params()) : null;
            if (setConfig != null) {
                runSessionCommand(setConfig.asSet());
                failed = false;
                return setConfig.answer();
            }
            Result bound = ConnectionBoundStatements.answer(r.sql(), p.backends(), !state.autoCommit());
            if (bound != null) {
                failed = false;
                return bound;
            }
            String discarded = p.backends().allSpeak(Engine.POSTGRESQL) ? discarded(r.sql()) : null;
            if (discarded != null) {
                discard(discarded);
                failed = false;
                return new Result.UpdateCount(0, null);
            }
            String database = VirtualCatalog.useTarget(r.sql());
            List<Backend> enabled = p.backends().enabled();
            if (database != null && enabled.stream().anyMatch(b -> b.engine() == Engine.MARIADB)) {
                catalog.use(database, enabled, state.user());
                failed = false;
                return new Result.UpdateCount(0, null);
            }
            SqlAnalysis a = p.analyzer().analyze(r.sql());
            if (a.kind() == StatementKind.READ && registry.writingFunctions().calledBy(r.sql(), enabled, state.user())) {
                a = a.asUnboundedWrite(); // SELECT add_order(...): the function writes, on every replica
            }
            if (p.statements().translates() && (a.kind() == StatementKind.READ
                    ? !DeclaredDialectReads.forTheDeclaredEngine(a) : a.kind().isWrite())) {
                p.statements().check(r.sql(), a); // reads for the declared engine go to its backends as written
            }
            Result result;
            AdvisoryLockCall lockCall = a.kind() == StatementKind.READ && a.readTables().isEmpty()
                    ? AdvisoryLockCall.parse(r.sql(), r.params()) : null;
            if (lockCall == null && (a.kind() == StatementKind.READ || a.kind() == StatementKind.WRITE)) {
                AdvisoryLockCall.refuseElsewhere(r.sql());
            }
            if (temporaries.concern(r.sql(), a)) {
                Request regular = temporaries.asRegularWrite(r, a);
                result = regular != null ? dispatch(regular, p.analyzer().analyze(regular.sql())) : temporaries.run(r, a);
            } else if (lockCall != null) {
                result = lockCall.run(advisoryLocks, this, !state.autoCommit(), p.scheduler().lockTimeoutMillis());
            } else if (a.kind() == StatementKind.READ) {
                CacheStage.Answer answer = read(r, a);
                answeredFromCache = answer.fromCache();
                result = answer.result();
            } else {
                result = dispatch(r, a);
            }
            failed = false;
            return result;
        } catch (SQLException e) {
            p.statistics().error();
            abortAsPostgres(e);
            throw QueryTimeouts.asTimeout(ConflictErrors.asEngine(e, p.backends()), r.queryTimeoutSeconds());
        } finally {
            p.statistics().statements().forSql(r.sql()).record(System.nanoTime() - start, failed, answeredFromCache);
        }
    }

    private CacheStage.Answer read(Request r, SqlAnalysis a) throws SQLException {
        if (r.expect() == Request.Expect.UPDATE_COUNT) {
            throw new SQLException("the statement returns rows; use executeQuery or execute",
                    SqlState.DYNAMIC_SQL_ERROR.code());
        }
        p.statistics().read();
        return reads.read(r, a, state);
    }

    /** Everything but reads: transaction demarcation, and writes (DML, DDL, anything not known to be a read). */
    private Result dispatch(Request r, SqlAnalysis a) throws SQLException {
        switch (a.kind()) {
            case BEGIN:
                if (state.autoCommit()) {
                    state.autoCommit(false);
                    begunBySql = true;
                } else if (!beginWithinTransaction()) {
                    return new Result.UpdateCount(0, null);
                }
                if (READ_ONLY_BEGIN.matcher(r.sql()).lookingAt() && !state.readOnly()) {
                    state.readOnly(true); // BEGIN READ ONLY: this transaction only (endTransaction)
                    readOnlyUntilEnd = true;
                }
                return new Result.UpdateCount(0, null);
            case BEGIN_IMMEDIATE:
                beginImmediate();
                return new Result.UpdateCount(0, null);
            case COMMIT:
            case ROLLBACK:
                if (!state.autoCommit()) {
                    if (a.kind() == StatementKind.COMMIT) {
                        commit();
                    } else {
                        rollback();
                    }
                }
                if (begunBySql) {
                    state.autoCommit(true);
                    begunBySql = false;
                }
                return new Result.UpdateCount(0, null);
            case SESSION:
                runSessionCommand(r);
                return new Result.UpdateCount(0, null);
            case SEVERAL_WITH_CONTROL:
                throw new SQLFeatureNotSupportedException("a text of several statements may not demarcate transactions"
                        + " or set session parameters: send BEGIN, COMMIT, ROLLBACK, SAVEPOINT and SET as statements of"
                        + " their own (or use the connection's setAutoCommit, commit and rollback)",
                        SqlState.FEATURE_NOT_SUPPORTED.code());
            case SAVEPOINT:
                if (state.autoCommit()) {
                    throw new SQLException("savepoints can only be used in transaction blocks",
                            SqlState.NO_ACTIVE_SQL_TRANSACTION.code());
                }
                transactions.savepoint(state, r.sql(), r.sql().stripLeading().regionMatches(true, 0, "rollback", 0, 8));
                return new Result.UpdateCount(0, null);
            default:
                if (r.expect() == Request.Expect.ROWS && a.parsed() && !mayReturnRows(r.sql())) {
                    throw new SQLException("the statement does not return rows; use executeUpdate or execute",
                            SqlState.DYNAMIC_SQL_ERROR.code());
                }
                p.statistics().write();
                if (state.readOnly()) {
                    throw new SQLException("the connection is read-only", SqlState.READ_ONLY_SQL_TRANSACTION.code());
                }
                String repeatable = registry.unrepeatableWrites().repeatable(r.sql(), p, state.user());
                Result written = writes.write(repeatable.equals(r.sql()) ? r : r.withSql(repeatable), a, state);
                if (a.kind() == StatementKind.DDL) {
                    registry.writingFunctions().ran(r.sql());
                    registry.unrepeatableWrites().schemaChanged();
                }
                return written;
        }
    }

    /**
     * On PostgreSQL a statement that fails inside a transaction aborts it: what follows gets
     * {@code 25P02} until a rollback (to a savepoint), and its COMMIT rolls back without an error (as
     * pgjdbc answers it). A write's or a joined read's error aborts the backends' branches already,
     * but the transaction must know it too: its commit otherwise went to the backends (and its record
     * of applied positions failed there with 25P02, the COMMIT logged then failed, which a replay
     * could commit); a read's before the transaction's first write, which runs on a pooled
     * connection, would leave it open, and it would commit what one PostgreSQL rolls back. Refusals
     * that run nothing (a query through executeUpdate, a feature or state refused) abort nothing.
     */
    private void abortAsPostgres(SQLException e) {
        String sqlState = e.getSQLState();
        // a lost connection (08) is no statement's failure: the commit says what became of the transaction
        if (state.autoCommit() || sqlState == null || sqlState.startsWith("07") || sqlState.startsWith("0A")
                || sqlState.startsWith("25") || sqlState.startsWith("08")
                || !p.backends().allSpeak(Engine.POSTGRESQL)) {
            return;
        }
        Transaction t = state.currentTransaction(p.scheduler());
        if (t.doomed() == null) {
            t.abortAfter(e);
        }
    }

    /**
     * The transaction was aborted by a statement whose error the client has had ({@code 25P02}
     * since), on PostgreSQL backends only: there the commit is a rollback that does not fail. Not one
     * the controller doomed for a reason of its own (a backend that disagreed) that the client has
     * not been told yet: that commit fails with the reason.
     */
    private boolean abortedAsPostgres() {
        Transaction t = state.transaction();
        SQLException doomed = t == null ? null : t.doomed();
        return doomed != null && (SqlState.IN_FAILED_SQL_TRANSACTION.code().equals(doomed.getSQLState()) || t.doomTold())
                && p.backends().allSpeak(Engine.POSTGRESQL);
    }

    /**
     * {@code SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY | READ WRITE}: the session's
     * transactions read-only or not, as {@link #setReadOnly}; null for any other statement. Other
     * characteristics (several at once) are refused: run on a pooled connection, they would stay
     * there for other clients. The isolation level alone is {@link Isolation#ofSetStatement}'s.
     */
    private static Boolean sessionReadOnly(String sql) throws SQLException {
        if (!sql.stripLeading().regionMatches(true, 0, "set", 0, 3)) {
            return null;
        }
        Matcher m = SESSION_CHARACTERISTICS.matcher(sql);
        if (!m.lookingAt()) {
            return null;
        }
        Matcher mode = SESSION_READ_MODE.matcher(sql);
        if (!mode.matches()) {
            throw new SQLFeatureNotSupportedException("SET SESSION CHARACTERISTICS is supported for one characteristic"
                    + " at a time: TRANSACTION ISOLATION LEVEL ..., READ ONLY or READ WRITE", SqlState.FEATURE_NOT_SUPPORTED.code());
        }
        return mode.group(1).equalsIgnoreCase("only");
    }

    /** {@code BEGIN READ ONLY}, {@code START TRANSACTION ISOLATION LEVEL ..., READ ONLY}: a read-only transaction. */
    private static final Pattern READ_ONLY_BEGIN = Pattern.compile("(?is)\\s*(?:begin|start)\\b[^;]*\\bread\\s+only\\b");
    private static final Pattern SESSION_CHARACTERISTICS = Pattern.compile("(?is)\\s*SET\\s+SESSION\\s+CHARACTERISTICS\\b");
    private static final Pattern SESSION_READ_MODE = Pattern.compile(
            "(?is)\\s*SET\\s+SESSION\\s+CHARACTERISTICS\\s+AS\\s+TRANSACTION\\s+READ\\s+(ONLY|WRITE)\\s*;?\\s*");

    /** Refuse before running, not after: a write run by mistake through executeQuery would stay applied. */
    private static boolean mayReturnRows(String sql) {
        String s = sql.toLowerCase(Locale.ROOT);
        return s.contains("select") || s.contains("returning") || s.contains("pragma") || s.contains("show")
                || s.contains("explain") || s.contains("values");
    }

    /**
     * BEGIN inside a transaction (or with auto-commit off), as the engine takes it: MariaDB commits
     * the transaction and starts another (true); SQLite refuses it, the transaction going on;
     * PostgreSQL warns and goes on (false: nothing started), as a mix of engines does here.
     */
    private boolean beginWithinTransaction() throws SQLException {
        if (p.backends().allSpeak(Engine.MARIADB)) {
            commit();
            return true;
        }
        if (p.backends().allSpeak(Engine.SQLITE)) {
            throw new SQLException("cannot start a transaction within a transaction", SqlState.ACTIVE_SQL_TRANSACTION.code(),
                    SQLITE_ERROR);
        }
        return false;
    }

    /** SQLite's result code for an SQL error, which sqlite-jdbc reports as the vendor code. */
    private static final int SQLITE_ERROR = 1;

    /** PostgreSQL's {@code DISCARD ALL | TEMP | TEMPORARY | PLANS | SEQUENCES}. */
    private static final Pattern DISCARD = Pattern.compile("(?is)\\s*discard\\s+(all|temp|temporary|plans|sequences)[\\s;]*");

    /** What a {@code DISCARD} statement discards (lower case), or null for any other statement. */
    private static String discarded(String sql) {
        if (ConnectionBoundStatements.firstLetter(sql) != 'd') {
            return null; // every statement passes here
        }
        Matcher m = DISCARD.matcher(sql);
        return m.matches() ? m.group(1).toLowerCase(Locale.ROOT) : null;
    }

    /**
     * PostgreSQL's DISCARD, as it resets a connection (pgbouncer's and other poolers' reset query):
     * ALL resets every session parameter and the role, releases the session's advisory locks and
     * drops its temporary tables, outside a transaction only ({@code 25001}, as there); TEMP drops
     * the temporary tables. PLANS and SEQUENCES concern the backend connections, which keep no
     * plan or sequence state of the session's: nothing to do.
     */
    private void discard(String what) throws SQLException {
        if (what.equals("plans") || what.equals("sequences")) {
            return;
        }
        if (!state.autoCommit()) {
            throw new SQLException("DISCARD " + what.toUpperCase(Locale.ROOT) + " cannot run inside a transaction block"
                    + " here", SqlState.ACTIVE_SQL_TRANSACTION.code());
        }
        if (what.equals("all")) {
            SessionParameters.run(p, state, Request.of("SET SESSION AUTHORIZATION DEFAULT"), reads);
            runSessionCommand(Request.of("RESET ALL"));
            advisoryLocks.release(this, AdvisoryLocks.Holds.ALL);
        }
        temporaries.close();
    }

    /** BEGIN IMMEDIATE (see {@link TransactionControl#beginImmediate}); opens the transaction as BEGIN does. */
    private void beginImmediate() throws SQLException {
        if (state.readOnly()) {
            throw new SQLException("the connection is read-only", SqlState.READ_ONLY_SQL_TRANSACTION.code());
        }
        if (state.begunTransaction() != null) {
            throw new SQLException("a transaction is already in progress", SqlState.ACTIVE_SQL_TRANSACTION.code());
        }
        if (state.autoCommit()) {
            state.autoCommit(false);
            begunBySql = true;
        }
        try {
            transactions.beginImmediate(state);
        } catch (SQLException e) {
            transactions.rollbackQuietly(state);
            if (begunBySql) {
                state.autoCommit(true);
                begunBySql = false;
            }
            throw e;
        }
    }

    @Override
    public synchronized void commit() throws SQLException {
        checkOpen();
        if (abortedAsPostgres()) {
            rollback(); // as PostgreSQL: the COMMIT of a transaction a failed statement aborted rolls it back
            return;
        }
        boolean committed = false;
        try {
            transactions.commit(state);
            committed = true;
        } finally {
            transactionEnded(committed);
        }
    }

    @Override
    public synchronized void rollback() throws SQLException {
        checkOpen();
        try {
            transactions.rollback(state);
        } finally {
            transactionEnded(false);
        }
    }

    /**
     * What lasts only as long as a transaction: its advisory locks, a {@code BEGIN READ ONLY}, the
     * temporary tables it created (if it rolled back) or created {@code ON COMMIT DROP}.
     */
    private void transactionEnded(boolean committed) {
        temporaries.transactionEnded(committed);
        advisoryLocks.release(this, AdvisoryLocks.Holds.TRANSACTION);
        if (readOnlyUntilEnd) {
            state.readOnly(false);
            readOnlyUntilEnd = false;
        }
    }

    /**
     * Whether a transaction is open on some backend. Read without the session's lock, for the
     * management counters only: a stale answer there is harmless, blocking behind a request is not.
     */
    boolean hasOpenTransaction() {
        return state.begunTransaction() != null;
    }

    // ---------------------------------------------------------------- batches, metadata

    @Override
    public synchronized BatchOutcome executeBatch(String sql, List<List<Object>> parameterSets, List<String> keyColumns,
                                                  int timeout) throws SQLException {
        checkOpen();
        if (!state.readOnly() && !onTemporaryTables(sql)) { // those go element by element, to its home
            if (keyColumns != null) {
                askingKeys(keyColumns);
            }
            BatchOutcome whole = whole(List.of(sql), () -> writes.writeBatch(sql, parameterSets, keyColumns, timeout,
                    p.analyzer().analyze(sql), state));
            if (whole != null) {
                return whole;
            }
        }
        List<Request> elements = new ArrayList<>();
        for (List<Object> set : parameterSets) {
            elements.add(new Request(sql, set, Request.Expect.UPDATE_COUNT, keyColumns, 0, 0, timeout));
        }
        return elementByElement(elements, keyColumns != null, false);
    }

    @Override
    public synchronized long[] executeBatch(List<String> statements, int timeout) throws SQLException {
        checkOpen();
        if (!state.readOnly() && statements.stream().noneMatch(this::onTemporaryTables)) {
            BatchOutcome whole = whole(statements, () -> writes.writeTexts(statements, timeout, state));
            if (whole != null) {
                return whole.counts();
            }
        }
        List<Request> elements = new ArrayList<>();
        for (String sql : statements) {
            elements.add(new Request(sql, List.of(), Request.Expect.UPDATE_COUNT, null, 0, 0, timeout));
        }
        // Connector/J runs the others after a failed one (its bulk protocol for a prepared batch does not)
        boolean goOn = p.backends().enabled().stream().allMatch(b -> b.engine() == Engine.MARIADB);
        return elementByElement(elements, false, goOn).counts();
    }

    private boolean onTemporaryTables(String sql) {
        return temporaries.concern(sql, p.analyzer().analyze(sql));
    }

    /** The batch as one write ({@link WriteStage#writeBatch}, {@link WriteStage#writeTexts}), or null: then element by element. */
    private BatchOutcome whole(List<String> texts, BatchRun run) throws SQLException {
        for (String sql : texts) { // refused as a whole before any element runs
            p.statements().check(sql, p.analyzer().analyze(sql));
            if (!registry.unrepeatableWrites().repeatable(sql, p, state.user()).equals(sql)) {
                return null; // made repeatable by a rewrite: element by element, each rewritten
            }
        }
        long start = System.nanoTime();
        BatchOutcome outcome;
        try {
            outcome = run.run();
        } catch (SQLException e) {
            p.statistics().error();
            texts.forEach(sql -> p.statistics().statements().forSql(sql).record(System.nanoTime() - start, true, false));
            throw e;
        }
        if (outcome != null) {
            texts.forEach(sql -> p.statistics().statements().forSql(sql).record(System.nanoTime() - start, false, false));
        }
        return outcome;
    }

    @FunctionalInterface
    private interface BatchRun {
        BatchOutcome run() throws SQLException;
    }

    /** The request asks for the keys {@code columns}: logged with its id, so that every member remembers them. */
    private void askingKeys(List<String> columns) {
        RequestId id = state.requestId();
        if (id != null && !id.wantsKeys()) {
            state.requestId(id.withKeys(columns));
        }
    }

    @Override
    public synchronized void requestId(RequestId id) {
        state.requestId(id);
    }

    /**
     * Each element as a statement of its own. A failed one ends the batch, unless {@code goOn}: the
     * others still run, and the exception's counts say which failed.
     */
    private BatchOutcome elementByElement(List<Request> elements, boolean wantsKeys, boolean goOn) throws SQLException {
        RequestId id = state.requestId();
        if (id != null) {
            state.requestId(id.logging(RequestId.Units.ELEMENTS)); // each element logs a unit of its own: none answers for all
        }
        long[] counts = new long[elements.size()];
        BatchOutcome.Keys keys = wantsKeys ? new BatchOutcome.Keys() : null;
        SQLException failed = null;
        for (int i = 0; i < counts.length; i++) {
            try (Result result = execute(elements.get(i))) {
                counts[i] = result instanceof Result.UpdateCount u ? u.count() : java.sql.Statement.SUCCESS_NO_INFO;
                if (keys != null && result instanceof Result.UpdateCount u) {
                    keys.add(u.generatedKeys());
                }
            } catch (SQLException e) {
                if (!goOn) {
                    throw new BatchUpdateException(e.getMessage(), e.getSQLState(), e.getErrorCode(),
                            Arrays.copyOf(counts, i), e);
                }
                counts[i] = java.sql.Statement.EXECUTE_FAILED;
                failed = failed == null ? e : failed;
            }
        }
        if (failed != null) {
            throw new BatchUpdateException(failed.getMessage(), failed.getSQLState(), failed.getErrorCode(), counts, failed);
        }
        return new BatchOutcome(counts, keys == null ? null : keys.result());
    }

    @Override
    public synchronized Result.Cached metadata(String method, List<Object> args) throws SQLException {
        checkOpen();
        if (method.equals("getCatalogs")) {
            return catalog.catalogs();
        }
        List<Backend> candidates = p.backends().enabled();
        if (candidates.isEmpty()) {
            throw p.backends().noBackend();
        }
        Backend b = p.balancer().choose(p.statements().speakingDeclared(candidates));
        // with the session's settings: its search_path decides which tables a PostgreSQL backend shows
        try (Connection c = b.connectionFor(state.user(), state.settings().at(null))) { // not its home: a branch may hold it
            List<Object> asked = catalog.toBackend(method, args, b, c, candidates, state.user());
            try (ResultSet rs = MetadataCall.invoke(c.getMetaData(), method, asked == null ? args : asked)) {
                return catalog.named(ControllerTablesHidden.without(StatementRunner.copy(rs)), asked == null);
            }
        }
    }

    // ---------------------------------------------------------------- lifecycle

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        transactions.rollbackQuietly(state);
        advisoryLocks.release(this, AdvisoryLocks.Holds.ALL);
        temporaries.close();
        closed = true;
        registry.closed(this);
    }

    private void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("the session is closed", SqlState.CONNECTION_DOES_NOT_EXIST.code());
        }
    }
}
