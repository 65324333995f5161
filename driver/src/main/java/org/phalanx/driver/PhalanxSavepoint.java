package org.phalanx.driver;

import java.sql.SQLException;
import java.sql.Savepoint;

/**
 * A savepoint of a Phalanx connection: named by the application, or numbered ({@code
 * phalanx_savepoint_N} on the backends). Names are plain SQL identifiers: every engine then reads
 * them the same way, unquoted.
 */
final class PhalanxSavepoint implements Savepoint {
    private final String name;
    private final int id;
    private volatile boolean released;

    private PhalanxSavepoint(String name, int id) {
        this.name = name;
        this.id = id;
    }

    static PhalanxSavepoint unnamed(int id) {
        return new PhalanxSavepoint(null, id);
    }

    static PhalanxSavepoint named(String name) throws SQLException {
        if (name == null || !name.matches("[A-Za-z_][A-Za-z0-9_]{0,62}")) {
            throw new SQLException("a savepoint name must be a plain identifier (letters, digits, _): " + name, "42602");
        }
        return new PhalanxSavepoint(name, 0);
    }

    static PhalanxSavepoint of(Savepoint savepoint) throws SQLException {
        if (savepoint instanceof PhalanxSavepoint s) {
            return s;
        }
        throw new SQLException("not a savepoint of this driver: " + savepoint, "3B001");
    }

    /** Released by its connection: no longer to be rolled back to. */
    void released() {
        released = true;
    }

    boolean isReleased() {
        return released;
    }

    /** The name the backends know it by. */
    String identifier() {
        return name != null ? name : "phalanx_savepoint_" + id;
    }

    @Override
    public int getSavepointId() throws SQLException {
        if (name != null) {
            throw new SQLException("a named savepoint has no id", "3B001");
        }
        return id;
    }

    @Override
    public String getSavepointName() throws SQLException {
        if (name == null) {
            throw new SQLException("an unnamed savepoint has no name", "3B001");
        }
        return name;
    }

    @Override
    public String toString() {
        return identifier();
    }
}
