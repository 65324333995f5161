package org.phalanx.controller.jmx;

import java.sql.SQLException;
import java.util.Map;
import org.phalanx.controller.vdb.VirtualDatabase;

/** The recovery log MBean (registered only for a virtual database with a log); actions go through the virtual database's MBean. */
final class RecoveryLogManagement implements RecoveryLogMXBean {
    private final VirtualDatabaseManagement vdb;

    RecoveryLogManagement(VirtualDatabaseManagement vdb) {
        this.vdb = vdb;
    }

    private VirtualDatabase.LogStatus status() {
        return vdb.virtualDatabase().recoveryLogStatus()
                .orElseThrow(() -> new IllegalStateException("virtual database " + vdb.getName() + " has no recovery log"));
    }

    @Override
    public String getDescription() {
        return status().description();
    }

    @Override
    public long getLastPosition() {
        return status().lastPosition();
    }

    @Override
    public long getPurgedThrough() {
        return status().purgedThrough();
    }

    @Override
    public long getSize() {
        return status().entries();
    }

    @Override
    public long getAppendedEntries() {
        return status().appended();
    }

    @Override
    public long getGroupCommits() {
        return status().groupCommits();
    }

    @Override
    public Map<String, Long> getCheckpoints() throws SQLException {
        return vdb.getCheckpoints();
    }

    @Override
    public long checkpoint(String name) throws SQLException {
        return vdb.checkpoint(name);
    }

    @Override
    public long purge() throws SQLException {
        return vdb.purgeLog();
    }
}
