package org.phalanx.requestmanager.distribution;

import java.sql.SQLException;
import java.util.Set;
import org.phalanx.recoverylog.LogEntry;

/**
 * Which of this member's backends an entry of the group's log applies to, decided once, in log
 * order, when the entry is copied into the member's recovery log ({@link LocalLogCopy}): the copy
 * names them, and the member's replay, crash recovery and start-up as primary go by those names.
 */
interface EntryPlacement {
    /**
     * The entry as this member's copy records it.
     *
     * @param named whether the entry already names this member's backends (this member wrote it as
     *              primary, or it is read back from the copy at a restart): only learned from
     * @throws SQLException when this member's placement cannot apply it (its tables on no common backend)
     */
    LogEntry placed(LogEntry entry, boolean named) throws SQLException;

    /** The position of the last entry that changed which backend holds which table (-1: none). */
    long lastSchemaChange();

    /** Full replication: every entry applies to every backend of the member. */
    static EntryPlacement everywhere(Set<String> backends) {
        Set<String> all = Set.copyOf(backends);
        return new EntryPlacement() {
            @Override
            public LogEntry placed(LogEntry entry, boolean named) {
                return named || entry.backends().isEmpty() ? entry : entry.withBackends(all);
            }

            @Override
            public long lastSchemaChange() {
                return -1;
            }
        };
    }
}
