package org.phalanx.requestmanager.session;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.util.ArrayList;
import java.util.List;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.StatementKind;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.SessionHome;
import org.phalanx.requestmanager.pipeline.LazyBranch;
import org.phalanx.requestmanager.pipeline.Pipeline;
import org.phalanx.requestmanager.pipeline.SessionState;
import org.phalanx.requestmanager.pipeline.Transaction;
import org.phalanx.requestmanager.read.ReadStage;

/**
 * One session's temporary tables: its statements that create or name one run on its home backend,
 * where they live ({@link SessionHome}), opened by the first; closing the session closes the home,
 * and they go with it. A write that changes regular tables may read them only through
 * {@code IN (SELECT ...)} subqueries, written in as their values ({@link #asRegularWrite}): the
 * other backends do not have them.
 */
final class TemporaryTables {
    private final Pipeline p;
    private final ReadStage reads;
    private final SessionState state;
    private final TemporaryTableNames names = new TemporaryTableNames();

    TemporaryTables(Pipeline p, ReadStage reads, SessionState state) {
        this.p = p;
        this.reads = reads;
        this.state = state;
    }

    /**
     * Whether the statement creates or names one of the session's temporary tables, or creates another
     * temporary object ({@link #asRegularWrite} refuses it).
     */
    boolean concern(String sql, SqlAnalysis a) {
        return names.touches(a, sql) || TemporaryTableNames.mentionsTemp(sql)
                && (TemporaryTableNames.created(sql) != null || TemporaryTableNames.unsupported(sql) != null);
    }

    /**
     * A statement {@link #concern}ed that changes regular tables, as a write to run like any other:
     * its {@code IN} subqueries over the temporary tables computed here and written in
     * ({@link TemporaryReads}); null for a statement to {@link #run} on the home. Other reads of
     * them by such a write are refused: the other backends do not have them.
     */
    Request asRegularWrite(Request r, SqlAnalysis a) throws SQLException {
        String unsupported = TemporaryTableNames.unsupported(r.sql());
        if (unsupported != null) {
            throw new SQLFeatureNotSupportedException(unsupported, SqlState.FEATURE_NOT_SUPPORTED.code());
        }
        if (TemporaryTableNames.created(r.sql()) != null || names.changesOnlyTemporary(a, r.sql())) {
            return null;
        }
        if (names.dropsMixed(r.sql())) {
            throw new SQLFeatureNotSupportedException("this DROP TABLE names temporary tables of this session and"
                    + " regular tables: the temporary ones live on one backend, the others on every backend. Drop them"
                    + " in separate statements", SqlState.FEATURE_NOT_SUPPORTED.code());
        }
        SessionHome home = home(false);
        String sql = TemporaryReads.inlined(r, p.analyzer(), names,
                subquery -> reads.atHome(subquery, p.analyzer().analyze(subquery.sql()), state, home.backend()));
        if (sql == null || names.touches(p.analyzer().analyze(sql), sql)) {
            throw new SQLFeatureNotSupportedException("a write that changes regular tables can read this session's"
                    + " temporary tables only through IN (SELECT ...) subqueries of them alone: they live on one backend,"
                    + " and the write could not be replicated to the others (docs/jdbc-unsupported.md)",
                    SqlState.FEATURE_NOT_SUPPORTED.code());
        }
        return r.withSql(sql);
    }

    /** Runs a statement {@link #concern}ed that changes only temporary tables, or reads, on the session's home. */
    Result run(Request r, SqlAnalysis a) throws SQLException {
        String created = TemporaryTableNames.created(r.sql());
        if (created != null && state.readOnly()) {
            throw new SQLException("the connection is read-only", SqlState.READ_ONLY_SQL_TRANSACTION.code());
        }
        SessionHome home = home(created != null);
        if (a.kind() == StatementKind.READ) {
            p.statistics().read();
        } else {
            p.statistics().write();
        }
        Result result = reads.atHome(r, a, state, home.backend());
        names.ran(a, r.sql(), created, !state.autoCommit());
        return result;
    }

    /** The session's home, opened on a backend its transaction has not joined yet if {@code creating} and there is none. */
    private SessionHome home(boolean creating) throws SQLException {
        SessionHome home = state.home();
        if (home != null && !home.backend().isEnabled()) {
            close();
            throw new SQLNonTransientConnectionException("this session's temporary tables were lost: backend "
                    + home.backend().name() + ", where they lived, left service", SqlState.CONNECTION_FAILURE.code());
        }
        if (home != null || !creating) {
            return home;
        }
        List<Backend> enabled = p.backends().enabled();
        if (enabled.isEmpty()) {
            throw p.backends().noBackend();
        }
        long wait = p.scheduler().lockTimeoutMillis();
        // preferably on a backend the transaction has not joined: a connection of its own; and of the
        // declared dialect's engine, whose temporary tables the session's statements are written for
        Transaction t = state.transaction();
        List<Backend> notJoined = new ArrayList<>(enabled);
        notJoined.removeIf(b -> t != null && t.branches().containsKey(b));
        if (!notJoined.isEmpty()) {
            Backend chosen = p.balancer().choose(p.statements().speakingDeclared(notJoined));
            home = SessionHome.open(chosen, state.user(), wait);
        } else { // it joined them all: its branch on one becomes the home, so it goes on there
            Backend chosen = p.balancer().choose(p.statements().speakingDeclared(enabled));
            home = LazyBranch.makeHome(t.branches().get(chosen), wait);
        }
        state.home(home);
        return home;
    }

    /** The session's transaction committed or rolled back (a failed commit rolled back). */
    void transactionEnded(boolean committed) {
        SessionHome home = state.home();
        names.transactionEnded(committed, home == null || home.backend().engine() != Engine.MARIADB);
    }

    /** The session ends, or its home was lost: the tables go. */
    void close() {
        SessionHome home = state.home();
        if (home != null) {
            state.home(null);
            home.close();
        }
        names.clear();
    }
}
