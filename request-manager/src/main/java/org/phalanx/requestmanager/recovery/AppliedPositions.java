package org.phalanx.requestmanager.recovery;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.regex.Pattern;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.backend.LocalTransaction;

/**
 * What a backend has applied, recorded on the backend itself (in {@link AppliedTable}), one row per unit of work at its log position (an auto-commit write at its own position, a
 * transaction at its COMMIT's position), inserted in the same backend transaction as the work,
 * so a crash can never separate the work from its record.
 *
 * <p>The lowest row is the floor: every unit at or below it is applied. The floor is raised at
 * checkpoints (rows below it are deleted then), so the table stays small; above it, a row per
 * applied unit.
 *
 * <p>A unit is committed on a backend only once its log entry is durable
 * ({@link #commit(Connection, AppliedTable, long, CompletableFuture)}): a backend therefore never holds a
 * position the recovery log lacks, and after a crash the log says exactly what each backend is
 * missing.
 */
public final class AppliedPositions {
    /**
     * Statements the engines refuse inside a transaction (SQLite's VACUUM, ATTACH, DETACH;
     * PostgreSQL's database and tablespace commands and CONCURRENTLY variants): run on their own, their
     * position recorded right after.
     */
    private static final Pattern OUTSIDE_TRANSACTIONS = Pattern.compile(
            "^\\s*(VACUUM|ATTACH|DETACH|(CREATE|DROP|ALTER)\\s+(DATABASE|TABLESPACE)|ALTER\\s+SYSTEM)\\b|\\bCONCURRENTLY\\b",
            Pattern.CASE_INSENSITIVE);

    /** What a backend's table says: the floor and the positions applied above it. */
    public record Applied(long floor, NavigableSet<Long> above) {
        public Applied {
            above = Collections.unmodifiableNavigableSet(new TreeSet<>(above));
        }

        /** Whether the unit at that position is applied here. */
        public boolean has(long position) {
            return position <= floor || above.contains(position);
        }
    }

    private AppliedPositions() {
    }

    /** Whether the statement cannot run inside a transaction, so it cannot share one with its record. */
    public static boolean runsOutsideTransactions(String sql) {
        return OUTSIDE_TRANSACTIONS.matcher(sql).find();
    }

    /** Creates the table if missing and sets it to "everything up to {@code floor} applied, nothing after". */
    public static void reset(Connection c, AppliedTable t, long floor) throws SQLException {
        t.ensure(c);
        if (!t.emptiesInTransaction()) {
            t.empty(c); // a crash before the floor is in leaves an empty record: unreadable, as it should be
        }
        inTransaction(c, () -> {
            if (t.emptiesInTransaction()) {
                t.empty(c);
            }
            record(c, t, floor);
        });
    }

    /** Creates the table if missing and empties it: nothing is known about what the backend holds. */
    public static void clear(Connection c, AppliedTable t) throws SQLException {
        t.ensure(c);
        t.empty(c);
    }

    /**
     * Raises the floor to {@code floor}, which must be a position every unit up to which is applied
     * here, and deletes the rows below it. Never lowers it: a raise computed earlier that arrives
     * late (after an enable by replay raised it further) changes nothing, where inserting it would
     * turn the higher floor into a row above it, a unit the log may not show as sent here.
     */
    public static void raiseFloor(Connection c, AppliedTable t, long floor) throws SQLException {
        inTransaction(c, () -> {
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT MIN(position) FROM " + t.table() + t.where(""))) {
                if (rs.next() && rs.getObject(1) != null && rs.getLong(1) >= floor) {
                    return;
                }
            }
            try (PreparedStatement delete = c.prepareStatement("DELETE FROM " + t.table() + t.where("position < ?"))) {
                delete.setLong(1, floor);
                delete.executeUpdate();
            }
            try (PreparedStatement exists = c.prepareStatement("SELECT 1 FROM " + t.table() + t.where("position = ?"))) {
                exists.setLong(1, floor);
                try (ResultSet rs = exists.executeQuery()) {
                    if (rs.next()) {
                        return;
                    }
                }
            }
            record(c, t, floor);
        });
    }

    /** The table's content; throws if the backend has no such table (it never recorded anything). */
    public static Applied read(Connection c, AppliedTable t) throws SQLException {
        t.ensure(c); // an earlier version's record moves first
        TreeSet<Long> positions = new TreeSet<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT position FROM " + t.table() + t.where(""))) {
            while (rs.next()) {
                positions.add(rs.getLong(1));
            }
        }
        if (positions.isEmpty()) {
            throw new SQLException("table " + t.table() + " holds no position for this backend: it lost its floor",
                    SqlState.INTERNAL_ERROR.code());
        }
        long floor = positions.pollFirst();
        return new Applied(floor, positions);
    }

    /** Records a unit's position on a connection inside the unit's transaction. */
    public static void record(Connection c, AppliedTable t, long position) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(t.insert())) {
            ps.setLong(1, position);
            ps.executeUpdate();
        }
    }

    /**
     * Ends a unit's transaction: records its position, waits until its log entry is durable, then
     * commits. On PostgreSQL the record and the COMMIT go in one round trip (the driver then knows
     * the transaction is over). Throws when the log could not record it (the caller rolls back).
     */
    public static void commit(Connection c, AppliedTable t, long position, CompletableFuture<?> logged)
            throws SQLException {
        if (t.engine() == Engine.POSTGRESQL) {
            awaitLogged(position, logged);
            try (Statement s = c.createStatement()) {
                s.execute(t.insert().replace("?", Long.toString(position)) + "; COMMIT");
            }
            c.commit(); // nothing left to commit: pgjdbc sends nothing
            return;
        }
        record(c, t, position);
        awaitLogged(position, logged);
        c.commit();
    }

    private static void awaitLogged(long position, CompletableFuture<?> logged) throws SQLException {
        if (logged == null) {
            return;
        }
        try {
            logged.join();
        } catch (CompletionException | java.util.concurrent.CancellationException e) {
            throw LogRefusal.of(e); // the caller rolls the unit back: it is not in the log
        }
    }

    /**
     * Runs one auto-commit unit as a short transaction that also records its position, committed
     * once {@code logged} completes. A statement that cannot run in a transaction runs on its own
     * and its position is recorded right after (a crash in between leaves it unrecorded: replay
     * would run it again).
     */
    public static <T> T runUnit(Connection c, AppliedTable t, String sql, long position, CompletableFuture<?> logged,
                                LocalTransaction.Work<T> work) throws Exception {
        if (runsOutsideTransactions(sql)) {
            T result = work.run();
            inTransaction(c, () -> {
                record(c, t, position);
                awaitLogged(position, logged);
            });
            return result;
        }
        return LocalTransaction.run(c, () -> {
            T result = work.run();
            commit(c, t, position, logged);
            return result;
        });
    }

    @FunctionalInterface
    private interface SqlWork {
        void run() throws SQLException;
    }

    /** Runs work in a transaction on an auto-commit connection and commits it. */
    private static void inTransaction(Connection c, SqlWork work) throws SQLException {
        LocalTransaction.runSql(c, () -> {
            work.run();
            c.commit();
            return null;
        });
    }
}
