package org.phalanx.requestmanager.distribution;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What a distributed virtual database's replicated log holds: claims of the primary role, and the
 * primary's recovery-log entries, each stamped with the epoch of the claim that made it primary.
 */
sealed interface GroupEntry {
    byte CLAIM = 'C';
    byte LOGGED = 'L';

    /**
     * A member asks to become primary for {@code epoch} (one above the epoch it saw); the first
     * claim of each epoch the log orders wins. A claim without a run resigns the role.
     *
     * @param run the claiming process's run, so a restarted member does not take an old claim for its own
     */
    record Claim(long epoch, String member, String run) implements GroupEntry {
        static Claim resign(long epoch, String member) {
            return new Claim(epoch, member, "");
        }

        boolean resigns() {
            return run.isEmpty();
        }
    }

    /** A recovery-log entry of the primary of {@code epoch} ({@link org.phalanx.recoverylog.EntryBytes}). */
    record Logged(long epoch, byte[] entry) implements GroupEntry {
    }

    default byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            if (this instanceof Claim c) {
                out.writeByte(CLAIM);
                out.writeLong(c.epoch());
                out.writeUTF(c.member());
                out.writeUTF(c.run());
            } else {
                Logged l = (Logged) this;
                out.writeByte(LOGGED);
                out.writeLong(l.epoch());
                out.write(l.entry());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return bytes.toByteArray();
    }

    static GroupEntry decode(byte[] bytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        byte kind = in.readByte();
        long epoch = in.readLong();
        return switch (kind) {
            case CLAIM -> new Claim(epoch, in.readUTF(), in.readUTF());
            case LOGGED -> new Logged(epoch, in.readAllBytes());
            default -> throw new IOException("unknown group log entry kind " + kind);
        };
    }
}
