package org.phalanx.requestmanager.distribution;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.phalanx.recoverylog.EntryBytes;
import org.phalanx.recoverylog.LogEntry;

/**
 * What a member's snapshot of the group's log holds in place of the entries it replaces
 * ({@link ReplicatedLog#compact()}): who is primary, which members hold backends taken over from
 * others (and which owners follow the log again, for a give-back), and, from a data member, the recovery-log
 * entries those entries carried — the ones after the member's last dump of the virtual database,
 * with that dump, or all of them while it has none, and what it remembered of the client requests
 * logged up to the dump (so that the outcome of one is still known where the snapshot is installed).
 * A member that lacks only entries takes them; one that lacks what the dump replaced restores the
 * dump onto its backends first.
 *
 * @param role     who is primary at the snapshot's index
 * @param holders  backends taken over, by name, with the member holding each, and the members that followed the
 *                 log since their backends were taken over (to whom they may be given back)
 * @param position the last recovery-log position the snapshot carries; -1 for a witness's, which carries none
 * @param from     the entries are those after this position (the dump's, or 0)
 * @param dump     the dump taken at {@code from}, or null
 * @param entries  the recovery-log entries after {@code from}, up to {@code position}
 * @param remembered what the writer remembered of the requests logged up to {@code from}; null in a
 *                 witness's snapshot and in one written before version 3
 */
record GroupSnapshot(PrimaryRole role, BackendHolders.State holders, long position, long from, byte[] dump,
                     List<LogEntry> entries, RememberedRequests remembered) {
    /**
     * Version 3 adds the requests remembered, version 2 the members following (give-backs); earlier
     * ones are read without them.
     */
    private static final byte VERSION = 3;
    private static final byte WITHOUT_REQUESTS = 2;
    private static final byte WITHOUT_FOLLOWING = 1;

    /** Whether it carries the recovery log (a witness's snapshot does not). */
    boolean carriesLog() {
        return position >= 0;
    }

    /** A witness's: the role and the holders only. */
    static void writeRole(DataOutput out, PrimaryRole role, BackendHolders.State holders) throws IOException {
        out.writeByte(VERSION);
        writeRoleOnly(out, role, holders);
        out.writeLong(-1);
    }

    /**
     * A data member's: the role, the dump (if any), the entries after it, streamed from its copy of
     * the log, and the requests it remembers up to the dump.
     */
    static void write(DataOutput out, PrimaryRole role, BackendHolders.State holders, long position, long from,
                      Path dump, Iterator<LogEntry> entries, RememberedRequests remembered) throws IOException {
        out.writeByte(VERSION);
        writeRoleOnly(out, role, holders);
        out.writeLong(position);
        out.writeLong(from);
        if (dump == null) {
            out.writeInt(-1);
        } else {
            byte[] bytes = Files.readAllBytes(dump);
            out.writeInt(bytes.length);
            out.write(bytes);
        }
        while (entries.hasNext()) {
            LogEntry e = entries.next();
            if (e.position() > position) {
                break;
            }
            byte[] bytes = EntryBytes.encode(e);
            out.writeInt(bytes.length);
            out.write(bytes);
        }
        out.writeInt(-1);
        remembered.write(out);
    }

    static GroupSnapshot read(DataInput in) throws IOException {
        byte version = in.readByte();
        if (version != VERSION && version != WITHOUT_REQUESTS && version != WITHOUT_FOLLOWING) {
            throw new IOException("unknown group snapshot version " + version);
        }
        PrimaryRole role = new PrimaryRole(in.readLong(), orNull(in.readUTF()), orNull(in.readUTF()),
                orNull(in.readUTF()));
        Map<String, String> takenOver = new TreeMap<>();
        for (int n = in.readInt(); n > 0; n--) {
            takenOver.put(in.readUTF(), in.readUTF());
        }
        Set<String> following = new HashSet<>();
        for (int n = version == WITHOUT_FOLLOWING ? 0 : in.readInt(); n > 0; n--) {
            following.add(in.readUTF());
        }
        BackendHolders.State holders = new BackendHolders.State(takenOver, following);
        long position = in.readLong();
        if (position < 0) {
            return new GroupSnapshot(role, holders, -1, -1, null, List.of(), null);
        }
        long from = in.readLong();
        byte[] dump = bytes(in);
        List<LogEntry> entries = new ArrayList<>();
        for (byte[] e = bytes(in); e != null; e = bytes(in)) {
            entries.add(EntryBytes.decode(e));
        }
        RememberedRequests remembered = version == VERSION ? RememberedRequests.read(in) : null;
        return new GroupSnapshot(role, holders, position, from, dump, entries, remembered);
    }

    private static void writeRoleOnly(DataOutput out, PrimaryRole role, BackendHolders.State holders)
            throws IOException {
        out.writeLong(role.epoch());
        out.writeUTF(orEmpty(role.member()));
        out.writeUTF(orEmpty(role.run()));
        out.writeUTF(orEmpty(role.resigned()));
        out.writeInt(holders.takenOver().size());
        for (Map.Entry<String, String> h : new TreeMap<>(holders.takenOver()).entrySet()) {
            out.writeUTF(h.getKey());
            out.writeUTF(h.getValue());
        }
        out.writeInt(holders.following().size());
        for (String member : holders.following().stream().sorted().toList()) {
            out.writeUTF(member);
        }
    }

    private static byte[] bytes(DataInput in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    private static String orNull(String s) {
        return s.isEmpty() ? null : s;
    }
}
