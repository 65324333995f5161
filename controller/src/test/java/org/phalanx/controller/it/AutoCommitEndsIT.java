package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * {@code commit()} and {@code rollback()} in auto-commit mode answer as the engine's own driver:
 * MariaDB Connector/J accepts them (nothing to end), pgjdbc refuses them with {@code 25P01} (no
 * active transaction), and SQLite's refusal is kept ({@code 25000}). Pool and framework code calls
 * them defensively; on MariaDB they failed.
 */
class AutoCommitEndsIT extends WithEngineCluster {
    @ParameterizedTest
    @EnumSource(Kind.class)
    void commitAndRollbackInAutoCommitModeAsTheEnginesDriver(Kind kind) throws Exception {
        cluster = new EngineCluster(dir, kind, 2, "phalanx_auto_commit_ends", "");
        try (Connection c = cluster.connect()) {
            if (kind == Kind.MARIADB) {
                c.commit();
                c.rollback();
                return;
            }
            String state = kind == Kind.POSTGRESQL ? "25P01" : "25000";
            assertEquals(state, assertThrows(SQLException.class, c::commit).getSQLState());
            assertEquals(state, assertThrows(SQLException.class, c::rollback).getSQLState());
        }
    }
}
