package org.phalanx.requestmanager.distribution;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a distributed virtual database's replicated log holds: claims of the primary role, the
 * primary's recovery-log entries, take-overs of backends and their give-backs, each stamped with the epoch of the
 * claim that made its writer primary; and members' sync marks.
 */
sealed interface GroupEntry {
    byte CLAIM = 'C';
    byte LOGGED = 'L';
    byte TAKEOVER = 'T';
    byte SYNC = 'S';
    byte GIVE_BACK = 'G';

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

    /**
     * The primary of {@code epoch}, {@code by}, holds from here on the backends {@code backends} of
     * member {@code owner}, which it can reach (docs/distribution.md, Taking over a member's backends).
     */
    record Takeover(long epoch, String owner, String by, List<String> backends) implements GroupEntry {
        public Takeover {
            backends = List.copyOf(backends);
        }
    }

    /**
     * The primary of {@code epoch}, {@code by}, which holds the backends {@code backends} of member
     * {@code owner} (taken over), gives them back: from here on, on every member, they are {@code
     * owner}'s again (docs/distribution.md, Giving backends back). {@code by} stopped writing to them
     * before it appended this.
     */
    record GiveBack(long epoch, String owner, String by, List<String> backends) implements GroupEntry {
        public GiveBack {
            backends = List.copyOf(backends);
        }
    }

    /**
     * A mark a member appends after joining or stepping down: once it is applied there, the member
     * has applied every entry committed before it (take-overs included), so it knows which of its
     * backends are its own before touching any. A member whose copy of the log is damaged appends
     * none: a sync mark also tells the others that its member follows the log (a give-back needs it).
     */
    record Sync(long epoch, String member) implements GroupEntry {
    }

    default byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            if (this instanceof Claim c) {
                out.writeByte(CLAIM);
                out.writeLong(c.epoch());
                out.writeUTF(c.member());
                out.writeUTF(c.run());
            } else if (this instanceof Takeover t) {
                out.writeByte(TAKEOVER);
                writeHanding(out, t.epoch(), t.owner(), t.by(), t.backends());
            } else if (this instanceof GiveBack g) {
                out.writeByte(GIVE_BACK);
                writeHanding(out, g.epoch(), g.owner(), g.by(), g.backends());
            } else if (this instanceof Sync sync) {
                out.writeByte(SYNC);
                out.writeLong(sync.epoch());
                out.writeUTF(sync.member());
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
            case TAKEOVER -> new Takeover(epoch, in.readUTF(), in.readUTF(), backends(in));
            case GIVE_BACK -> new GiveBack(epoch, in.readUTF(), in.readUTF(), backends(in));
            case SYNC -> new Sync(epoch, in.readUTF());
            default -> throw new IOException("unknown group log entry kind " + kind);
        };
    }

    /** A take-over's or a give-back's fields after its kind: they say the same things, the other way round. */
    private static void writeHanding(DataOutputStream out, long epoch, String owner, String by, List<String> backends)
            throws IOException {
        out.writeLong(epoch);
        out.writeUTF(owner);
        out.writeUTF(by);
        out.writeInt(backends.size());
        for (String b : backends) {
            out.writeUTF(b);
        }
    }

    private static List<String> backends(DataInputStream in) throws IOException {
        List<String> backends = new ArrayList<>();
        for (int n = in.readInt(); n > 0; n--) {
            backends.add(in.readUTF());
        }
        return backends;
    }
}
