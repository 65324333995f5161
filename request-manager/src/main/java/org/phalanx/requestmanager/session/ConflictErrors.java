package org.phalanx.requestmanager.session;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.backend.Backends;
import org.phalanx.requestmanager.scheduler.LockConflict;

/**
 * The controller's own lock conflicts — a deadlock it broke, a lock waited for past the timeout
 * ({@link LockConflict}: 40001, vendor code 0) — with the vendor code MariaDB's driver gives the
 * same conflicts, 1213 and 1205, on a virtual database of MariaDB backends: Spring and Hibernate
 * tell a deadlock from a lock timeout by those codes on MySQL and MariaDB.
 */
final class ConflictErrors {
    static final int MARIADB_DEADLOCK = 1213;
    static final int MARIADB_LOCK_WAIT_TIMEOUT = 1205;

    private ConflictErrors() {
    }

    static SQLException asEngine(SQLException e, Backends backends) {
        if (!(e instanceof LockConflict conflict) || !backends.allSpeak(Engine.MARIADB)) {
            return e;
        }
        int code = conflict.kind() == LockConflict.Kind.DEADLOCK ? MARIADB_DEADLOCK : MARIADB_LOCK_WAIT_TIMEOUT;
        return new SQLTransactionRollbackException(e.getMessage(), e.getSQLState(), code, e);
    }
}
