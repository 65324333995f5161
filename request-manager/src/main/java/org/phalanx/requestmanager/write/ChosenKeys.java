package org.phalanx.requestmanager.write;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.SqlAnalyzer;
import org.phalanx.requestmanager.analysis.SqlLexer;
import org.phalanx.requestmanager.analysis.StatementKind;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.FirstAnswering;
import org.phalanx.requestmanager.hetero.ControllerKeys;
import org.phalanx.requestmanager.hetero.KeyedInsert;
import org.phalanx.requestmanager.pipeline.SessionState;
import org.phalanx.requestmanager.pipeline.Transaction;
import org.phalanx.requestmanager.routing.SchemaView;
import org.phalanx.requestmanager.scheduler.Access;
import org.phalanx.requestmanager.scheduler.Scheduler;

/**
 * Keys chosen by the controller for INSERTs that leave out their table's auto-generated key,
 * when engines that disagree on counters serve one virtual database (see {@link ControllerKeys}).
 * {@link #NONE} when every backend is of one engine: their own counters agree.
 */
public interface ChosenKeys {

    /** A planned statement with its keys: the text, and the request the backends run. */
    record Keyed(String sql, Request request) {
    }

    /**
     * An INSERT whose key the controller chooses: its shape, its table and the key column it leaves
     * out; {@code postgres}: how PostgreSQL backends receiving it untranslated take the keys (else
     * null); {@code counter}: the table's, kept (the table may be forgotten before the keys are chosen).
     */
    record Plan(KeyedInsert insert, String tableKey, String column, KeyedInsert.PostgresKeys postgres,
                ControllerKeys.TableKeys counter) {
        /** The key column's JDBC type. */
        public int columnType() {
            return counter.learnt().jdbcType();
        }

        /** The sequence the key column takes its values from (PostgreSQL's serial or identity), or null. */
        public String sequence() {
            return counter.learnt().sequence();
        }

        /**
         * The statement carrying {@code keys}, and {@code r} as the backends run it: with the keys
         * among its parameters, asking them for no keys (their counters are not used).
         */
        public Keyed withKeys(long[] keys, Request r) {
            KeyedInsert.Keyed k = insert.withKeys(column, keys, r.params(), postgres);
            return new Keyed(k.sql(), new Request(r.sql(), k.params(), r.expect(), null, r.maxRows(), r.fetchSize(),
                    r.queryTimeoutSeconds()));
        }

        /** The text of every statement of this plan, if it gives its keys as parameters (else null). */
        public String template(List<Object> params) {
            return insert.keysAsParameters(params) ? insert.template(column, postgres) : null;
        }
    }

    /**
     * The plan of a statement, or null for any statement whose keys the backends choose. A table
     * not seen yet is learnt first on the first of {@code backends} that answers, once it has applied
     * every earlier write on it (this transaction's own ones included); the scheduler lock held on the
     * table keeps others out.
     */
    Plan plan(String sql, List<Object> params, SqlAnalysis a, List<Backend> backends, SessionState s, Access access)
            throws SQLException;

    /** The next keys for a planned INSERT of {@code rows} rows; inside the write ordering. */
    long[] next(Plan plan, int rows);

    /** A DDL statement may have changed a table's key column: learn it again at its next insert. */
    void forget(SqlAnalysis a);

    /**
     * A write has run, keyed by {@code plan} (or null: not keyed by the controller). Where the engine
     * chose keys itself ({@code INSERT ... SELECT}, {@code VALUES (NULL, ...)}, {@code REPLACE},
     * {@code ON DUPLICATE KEY UPDATE}...) it took them past the controller's counter, which would hand
     * them out again (a duplicate key; under {@code INSERT IGNORE} a row silently lost); so may a write
     * that {@code reachesOtherTables} (its functions or triggers may draw from any table's sequence).
     * Those tables' counters are learnt again, from their MAX and sequence, at their next insert.
     */
    void ran(String sql, SqlAnalysis a, boolean reachesOtherTables, Plan plan);

    /**
     * Whether a write may reach tables it does not name: a statement not understood, or one whose
     * table-level access was widened to everything (a table with triggers, rules or a shared sequence,
     * {@link RowLocking}) — not one locking everything only because the backends lock whole databases.
     */
    static boolean reachesOtherTables(SqlAnalysis a, Access tableLevel, Access locked) {
        return a.allTables() || locked.writesAll() && !tableLevel.writesAll();
    }

    ChosenKeys NONE = new ChosenKeys() {
        @Override
        public Plan plan(String sql, List<Object> params, SqlAnalysis a, List<Backend> backends, SessionState s,
                         Access access) {
            return null;
        }

        @Override
        public long[] next(Plan plan, int rows) {
            throw new IllegalStateException("no keys are chosen by the controller");
        }

        @Override
        public void forget(SqlAnalysis a) {
        }

        @Override
        public void ran(String sql, SqlAnalysis a, boolean reachesOtherTables, Plan plan) {
        }
    };

    /** Keys chosen from the controller's counters. */
    final class Controller implements ChosenKeys {
        private final ControllerKeys keys = new ControllerKeys();
        private final Scheduler scheduler;
        private final boolean postgres;

        /**
         * @param postgres the keyed statements go to PostgreSQL backends untranslated ({@link
         *                 KeyedInsert.PostgresKeys})
         */
        public Controller(Scheduler scheduler, boolean postgres) {
            this.scheduler = scheduler;
            this.postgres = postgres;
        }

        @Override
        public Plan plan(String sql, List<Object> params, SqlAnalysis a, List<Backend> backends, SessionState s,
                         Access access) throws SQLException {
            if (a.kind() != StatementKind.WRITE) {
                return null;
            }
            KeyedInsert insert = keys.shape(sql);
            if (insert == null) {
                return null;
            }
            // its schema kept: tables of one name in two schemas have counters (and sequences) of their own
            String tableKey = SqlAnalyzer.normalize(insert.table());
            ControllerKeys.TableKeys counter = keys.counter(tableKey);
            if (counter == null) {
                keys.learned(tableKey, FirstAnswering.read(backends, b -> learn(b, s, access, insert.table())));
                counter = keys.counter(tableKey);
            }
            String column = counter == null ? null : counter.learnt().column().orElse(null);
            if (column == null) {
                return null; // no generated key (or forgotten at once: the engines choose this one)
            }
            if (insert.names(column)) {
                keys.given(tableKey, insert.keysGiven(column, params));
                return null;
            }
            ControllerKeys.Learnt learnt = counter.learnt();
            return new Plan(insert, tableKey, column, postgres
                    ? new KeyedInsert.PostgresKeys(learnt.sequenceWritable() ? learnt.sequence() : null) : null, counter);
        }

        private ControllerKeys.Learnt learn(Backend b, SessionState s, Access access, String table) throws SQLException {
            Transaction t = s.transaction();
            Connection branch = t == null ? null : t.branches().get(b);
            List<CompletableFuture<ControllerKeys.Learnt>> learnt = new ArrayList<>(1);
            scheduler.order(position -> learnt.add(s.tails().enqueue(b, access, () -> branch != null
                    ? ControllerKeys.learn(branch, table)
                    // not its home: a branch may hold it
                    : b.onPooledConnection(s.user(), s.settings().at(null), c -> ControllerKeys.learn(c, table)))));
            try {
                return learnt.get(0).join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof SQLException sql ? sql
                        : new SQLException("could not read the keys of table " + table + ": " + e.getCause(),
                        SqlState.INTERNAL_ERROR.code(), e);
            }
        }

        @Override
        public long[] next(Plan plan, int rows) {
            return plan.counter().next(rows);
        }

        @Override
        public void forget(SqlAnalysis a) {
            keys.forget(SchemaView.key(a.ddl().table()));
            if (a.ddl().newName() != null) {
                keys.forget(SchemaView.key(a.ddl().newName()));
            }
        }

        @Override
        public void ran(String sql, SqlAnalysis a, boolean reachesOtherTables, Plan plan) {
            if (reachesOtherTables || SqlLexer.mayCall(sql, SEQUENCE_CALLS)) {
                // it may have inserted anywhere, or drawn keys from a sequence (SELECT nextval(...), to insert later)
                keys.forgetAllBut(plan == null ? null : plan.tableKey());
            } else if (plan == null && INSERTING.contains(SqlLexer.firstWord(sql))) {
                a.writtenTables().forEach(table -> keys.forget(SchemaView.key(table)));
            }
        }

        private static final java.util.Set<String> SEQUENCE_CALLS = java.util.Set.of("nextval", "setval");

        /** First words of statements that may insert rows. */
        private static final java.util.Set<String> INSERTING = java.util.Set.of("insert", "replace", "merge", "upsert", "with");
    }
}
