package org.phalanx.recoverylog.dump;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import org.phalanx.engine.Engine;

/**
 * How a restore's new tables take the place of the target's tables of the same names, so that a
 * failed restore leaves the target as it was. Where DDL is transactional (SQLite, PostgreSQL)
 * the old tables are dropped in the restore's transaction and its rollback brings them back
 * ({@link ReplaceInTransaction}); MariaDB commits every CREATE and DROP at once, so the new tables
 * are built and filled under other names and swapped in only when complete
 * ({@link StagedReplacement}).
 */
interface TableReplacement {

    static TableReplacement forEngine(Engine engine, Connection target) {
        return engine == Engine.MARIADB ? new StagedReplacement(target) : new ReplaceInTransaction(engine, target);
    }

    /**
     * Chooses the name each table of the dump is created and loaded under.
     *
     * @param tables   real name of each table of the dump, in creation order
     * @param existing real name -> the target's table of that name (any case), for those it has
     * @return real name -> the name to create it under
     */
    Map<String, String> plan(Iterable<String> tables, Map<String, String> existing);

    /** Runs first, in the restore's transaction. */
    void beforeCreate() throws SQLException;

    /** Runs after the restore's transaction committed; afterwards the new tables are the target's. */
    void complete() throws SQLException;

    /**
     * Runs after a failure, once the transaction is rolled back.
     *
     * @return what the target holds now, for the failure's message
     */
    String undo();
}
