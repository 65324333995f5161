package org.phalanx.requestmanager.distribution;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.phalanx.recoverylog.AppendStatistics;
import org.phalanx.recoverylog.CloseableIterator;
import org.phalanx.recoverylog.GeneratedKeys;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.recoverylog.RecoveryLog;

/** A recovery log that passes every call to another; subclasses change what they must. */
class ForwardingRecoveryLog implements RecoveryLog {
    private final RecoveryLog to;

    ForwardingRecoveryLog(RecoveryLog to) {
        this.to = to;
    }

    @Override
    public CompletableFuture<Void> appendAsync(LogEntry entry) {
        return to.appendAsync(entry);
    }

    @Override
    public boolean settle() {
        return to.settle();
    }

    @Override
    public long lastPosition() {
        return to.lastPosition();
    }

    @Override
    public long purgedThrough() {
        return to.purgedThrough();
    }

    @Override
    public CloseableIterator<LogEntry> read(long afterPosition) {
        return to.read(afterPosition);
    }

    @Override
    public void setCheckpoint(String name, long position) {
        to.setCheckpoint(name, position);
    }

    @Override
    public Optional<Long> checkpoint(String name) {
        return to.checkpoint(name);
    }

    @Override
    public Map<String, Long> checkpoints() {
        return to.checkpoints();
    }

    @Override
    public void removeCheckpoint(String name) {
        to.removeCheckpoint(name);
    }

    @Override
    public long purge() {
        return to.purge();
    }

    @Override
    public void putState(String key, String value) {
        to.putState(key, value);
    }

    @Override
    public Map<String, String> states() {
        return to.states();
    }

    @Override
    public AppendStatistics appendStatistics() {
        return to.appendStatistics();
    }

    @Override
    public void counted(long position, long count, GeneratedKeys keys) {
        to.counted(position, count, keys);
    }

    @Override
    public void close() {
        to.close();
    }
}
