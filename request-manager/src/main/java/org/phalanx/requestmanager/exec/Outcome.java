package org.phalanx.requestmanager.exec;

import java.sql.SQLException;

/**
 * What one backend's run of a replicated write comes to, as backends are compared: a success
 * with its update count, or a refusal with its SQLState class ("22" data exception, "23"
 * constraint violation, ...). Engines name the same refusal with different codes in one class
 * (a unique violation is 23505 on PostgreSQL, 23000 on MariaDB), so the class is what agrees.
 */
public record Outcome(boolean success, long count, String errorClass) {

    public static Outcome success(long count) {
        return new Outcome(true, count, null);
    }

    /** A refusal, from an error already normalised ({@code SqlStates.normalize}). */
    public static Outcome refusal(SQLException e) {
        String state = e.getSQLState();
        return new Outcome(false, 0, state == null || state.length() < 2 ? "HY" : state.substring(0, 2));
    }

    @Override
    public String toString() {
        return success ? "success (" + count + " rows)" : "error class " + errorClass;
    }
}
