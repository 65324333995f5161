package org.phalanx.requestmanager.backend;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.analysis.LastInsertId;

/** The backends of one virtual database, in configuration order. */
public final class Backends {
    private final String virtualDatabase;
    private final List<Backend> all;
    private final LastInsertId lastInsertId;

    public Backends(String virtualDatabase, List<Backend> all) {
        this.virtualDatabase = virtualDatabase;
        this.all = List.copyOf(all);
        boolean oneEngine = !all.isEmpty() && all.stream().allMatch(b -> b.engine() == all.get(0).engine());
        this.lastInsertId = oneEngine ? LastInsertId.of(all.get(0).engine()) : null;
    }

    /**
     * The function answering a session's last inserted id that the sessions keep for themselves
     * (SQLite's {@code last_insert_rowid()}, MariaDB's {@code LAST_INSERT_ID()}), when every backend
     * runs that engine; else null (a mix of engines: their functions are answered by the backend).
     */
    public LastInsertId lastInsertId() {
        return lastInsertId;
    }

    public List<Backend> all() {
        return all;
    }

    /** Those in service now. */
    public List<Backend> enabled() {
        List<Backend> enabled = new ArrayList<>(all.size());
        for (Backend b : all) {
            if (b.isEnabled()) {
                enabled.add(b);
            }
        }
        return enabled;
    }

    public Backend named(String backendName) throws SQLException {
        for (Backend b : all) {
            if (b.name().equals(backendName)) {
                return b;
            }
        }
        throw new SQLException("virtual database " + virtualDatabase + " has no backend " + backendName,
                SqlState.UNDEFINED_OBJECT.code());
    }

    /** The error of a request that finds no backend in service. */
    public SQLException noBackend() {
        return new SQLException("virtual database " + virtualDatabase + " has no enabled backend",
                SqlState.CONNECTION_FAILURE.code());
    }

    /** The SQL dialects the backends speak (a controller backend speaks its own backends'). */
    public Set<Engine> dialects() {
        Set<Engine> dialects = EnumSet.noneOf(Engine.class);
        for (Backend b : all) {
            dialects.add(b.dialect());
        }
        return dialects;
    }

    /** Whether every backend speaks {@code dialect}. */
    public boolean allSpeak(Engine dialect) {
        for (Backend b : all) {
            if (b.dialect() != dialect) {
                return false;
            }
        }
        return !all.isEmpty();
    }

    /** Requests in progress over all backends (load for load-triggered relaxed caching, management). */
    public int pending() {
        int sum = 0;
        for (Backend b : all) {
            sum += b.pending();
        }
        return sum;
    }
}
