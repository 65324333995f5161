package org.phalanx.requestmanager.distribution;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.recoverylog.RecoveryLog;

/**
 * A data member's dumps of the virtual database, kept for its group's log once compacted: the dump
 * its snapshots carry (taken from one of its backends at a recovery-log position, or received in a
 * snapshot), and whether its backends must first be restored from a received one. Both survive a
 * restart: its local recovery log's states name them, and its checkpoint {@value #CHECKPOINT} keeps
 * the entries after the dump from being purged.
 */
final class MemberDumps {
    private static final Logger LOG = LogManager.getLogger(MemberDumps.class);
    static final String CHECKPOINT = "group-dump";
    private static final String DUMP_STATE = "group.dump";
    private static final String RESTORE_STATE = "group.restore";

    /** A dump file and the recovery-log position it reflects. */
    record Dump(long position, Path file) {
        static Dump parse(String state) {
            if (state == null) {
                return null;
            }
            int space = state.indexOf(' ');
            return new Dump(Long.parseLong(state.substring(0, space)), Path.of(state.substring(space + 1)));
        }

        String state() {
            return position + " " + file.toAbsolutePath();
        }
    }

    private final RecoveryLog local;
    private final Path dir;
    private final String prefix;
    private volatile Dump current;
    private volatile Dump pendingRestore;

    MemberDumps(RecoveryLog local, Path dir, String prefix) {
        this.local = local;
        this.dir = dir;
        this.prefix = prefix;
        Map<String, String> states = local.states();
        this.current = Dump.parse(states.get(DUMP_STATE));
        this.pendingRestore = Dump.parse(states.get(RESTORE_STATE));
    }

    /** The dump this member's snapshots carry, or null before its first compaction. */
    Dump current() {
        return current;
    }

    /** A received dump this member's backends must be restored from before following the log again, or null. */
    Dump pendingRestore() {
        return pendingRestore;
    }

    /** Where a new dump goes. */
    Path newFile() {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir.resolve(prefix + "-" + System.currentTimeMillis() + ".dump");
    }

    /** A dump this member took becomes the one its snapshots carry; the one before is deleted. */
    void taken(long position, Path file) {
        replaceCurrent(new Dump(position, file));
    }

    /**
     * A dump received in a snapshot, at {@code position}: written (durably) before the entries after
     * it are handed to the local copy, and marked for restoring, so that a crash in between still
     * finds it to restore from. It is also the one this member's own snapshots carry from now on.
     */
    void received(long position, byte[] bytes) throws IOException {
        Path file = newFile();
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        Files.write(tmp, bytes);
        try (FileChannel c = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            c.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        try (FileChannel folder = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            folder.force(true); // the rename too, before the state below names the file
        }
        Dump dump = new Dump(position, file);
        local.putState(RESTORE_STATE, dump.state());
        pendingRestore = dump;
        replaceCurrent(dump);
    }

    /** The backends hold the received dump's data now. */
    void restored() {
        local.putState(RESTORE_STATE, null);
        pendingRestore = null;
    }

    private void replaceCurrent(Dump dump) {
        Dump before = current;
        local.setCheckpoint(CHECKPOINT, dump.position());
        local.putState(DUMP_STATE, dump.state());
        current = dump;
        if (before != null && !before.file().equals(dump.file())) {
            try {
                Files.deleteIfExists(before.file());
            } catch (IOException e) {
                LOG.warn("the replaced group dump {} could not be deleted: {}", before.file(), e.toString());
            }
        }
    }
}
