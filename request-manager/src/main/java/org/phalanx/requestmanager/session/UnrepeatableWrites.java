package org.phalanx.requestmanager.session;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.analysis.UnrepeatableCalls;
import org.phalanx.requestmanager.analysis.UnrepeatableDdl;
import org.phalanx.requestmanager.pipeline.Pipeline;
import org.phalanx.requestmanager.recovery.LogWriter;

/**
 * Writes each replica, and each replay of the recovery log, would carry out its own way, refused
 * ({@code 0A000}) before anything runs, with what to do instead: a function whose value no replica
 * computes like another ({@link UnrepeatableCalls}), DDL whose routine or default would
 * ({@link UnrepeatableDdl}), values of each backend's server or connection, PostgreSQL's system
 * columns and {@code 'now'} literals, and rows chosen or numbered in each replica's own scan order
 * (an unordered INSERT ... SELECT into a numbered table is ordered instead, where it can be).
 * Nothing is refused where nothing could come out different: one backend and no log.
 */
final class UnrepeatableWrites {
    private final NumberedInserts numbered = new NumberedInserts();

    /**
     * The write as it may run on every replica: {@code sql} itself, or made to come out the same
     * everywhere (an unordered INSERT ... SELECT ordered, {@link NumberedInserts}); refused if it cannot be.
     */
    String repeatable(String sql, Pipeline p, String user) throws SQLException {
        if (p.backends().all().size() < 2 && p.log() == LogWriter.NONE) {
            return sql;
        }
        String why = why(sql, p);
        if (why != null) {
            throw new SQLFeatureNotSupportedException(why, SqlState.FEATURE_NOT_SUPPORTED.code());
        }
        // SQLite's scan order is the same on every replica
        return p.backends().allSpeak(Engine.SQLITE) ? sql : numbered.ordered(sql, p.backends().enabled(), user);
    }

    /** DDL ran: what is known of the tables' numbered keys may have changed. */
    void schemaChanged() {
        numbered.schemaChanged();
    }

    private String why(String sql, Pipeline p) {
        String call = UnrepeatableCalls.firstCall(sql);
        if (call != null) {
            return call + "() in a write would give each replica, and each replay of the recovery log, a value of its own:"
                    + " generate the value in the application and pass it as a parameter";
        }
        String inDdl = UnrepeatableDdl.unrepeatableCall(sql);
        if (inDdl != null) {
            return "DDL whose routine, rule, view or column default calls " + inDdl + " would have each replica, and each"
                    + " replay of the recovery log, compute a value of its own, and the replicas would differ: set the value"
                    + " in the statements themselves (the controller chooses now(), CURRENT_TIMESTAMP and RAND() there once)"
                    + " or in the application; to add a column with such a default, add it without one, then SET DEFAULT,"
                    + " then fill the existing rows with an UPDATE";
        }
        String view = UnrepeatableCalls.serverView(sql);
        if (view != null) {
            return "a write reading " + view + ", a view of each backend's own server state, would store or choose"
                    + " something different on each replica: read it first and pass what you need as a parameter";
        }
        String variable = UnrepeatableCalls.serverVariable(sql);
        if (variable != null) {
            return variable + " in a write would give each replica, and each replay of the recovery log, a value of its own"
                    + " (each backend's server or connection): pass the value as a parameter";
        }
        if (UnrepeatableDdl.schedulesEvent(sql)) {
            return "an EVENT runs on each backend's own event scheduler, outside the controller's order and the recovery"
                    + " log, so the replicas would differ: run the work from the application on a schedule instead";
        }
        boolean postgres = p.backends().dialects().contains(Engine.POSTGRESQL);
        if (postgres && UnrepeatableDdl.numbersExistingRows(sql)) {
            return "a column added as serial or identity numbers the table's existing rows in each replica's own"
                    + " physical order, and the replicas would differ: add it as a plain integer column, fill it with"
                    + " an UPDATE ordered by a unique key, then attach a sequence (CREATE SEQUENCE ... OWNED BY, SET DEFAULT)";
        }
        if (postgres && UnrepeatableDdl.cachesSequenceValues(sql)) {
            return "a sequence with CACHE above 1 hands each backend connection its own block of values, so each replica"
                    + " (and each client, through pooled connections) would get other numbers: leave CACHE at 1";
        }
        String systemColumn = postgres ? UnrepeatableCalls.systemColumn(sql) : null;
        if (systemColumn != null) {
            return "a write naming the system column " + systemColumn + ": its value is each replica's own (transaction ids,"
                    + " a row's physical place), so the write would change different rows or store different values on"
                    + " each; use a version column of your own for optimistic locking, and the key to tell rows apart";
        }
        if (!p.backends().allSpeak(Engine.SQLITE) && UnrepeatableCalls.limitWithoutOrder(sql)) {
            return "a write choosing its rows by LIMIT without ORDER BY: each replica would take the first rows of its"
                    + " own physical order, and change other rows; add an ORDER BY on a unique key";
        }
        String unordered = p.backends().allSpeak(Engine.SQLITE) ? null : UnrepeatableCalls.unorderedCall(sql);
        if (unordered != null) {
            return unordered + (unordered.equals("DISTINCT ON") ? " without an ORDER BY" : "() without an ORDER BY")
                    + " in a write: its value follows the order in which each replica happens to read the rows, so"
                    + " each would store something else; give the order (string_agg(name, ',' ORDER BY name),"
                    + " row_number() OVER (ORDER BY id), DISTINCT ON (a) ... ORDER BY a, id), on a unique key";
        }
        String clock = postgres ? UnrepeatableCalls.clockLiteral(sql) : null;
        if (clock != null) {
            return "the literal " + clock + " in a write: PostgreSQL reads it as the current time where it becomes a date"
                    + " or timestamp, each replica and each replay of the recovery log its own; write now(), CURRENT_DATE"
                    + " (which the controller chooses once) or pass the value as a parameter";
        }
        return null;
    }
}
