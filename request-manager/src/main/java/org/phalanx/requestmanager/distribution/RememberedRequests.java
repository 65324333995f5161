package org.phalanx.requestmanager.distribution;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.phalanx.recoverylog.GeneratedKeys;
import org.phalanx.requestmanager.api.RequestId;
import org.phalanx.requestmanager.recovery.RememberedKeys;

/**
 * What a data member remembered, when it took a snapshot of the group's log, of the client
 * requests logged up to the snapshot's dump ({@link RequestOutcomes}): the entries the dump replaces
 * are not in the snapshot, so a member that installs it — or restarts from it — would otherwise not
 * know whether such a request was applied. Carried in the snapshot ({@link GroupSnapshot}, version 3).
 *
 * @param blindSinceMillis when (wall clock, ms) the writer itself last learnt its log from a snapshot
 *                         that carried no such record, or 0: a request sent before then that it does
 *                         not know of may have been logged all the same
 * @param requests         each client connection's last request logged up to the dump, with its units there
 */
record RememberedRequests(long blindSinceMillis, List<Request> requests) {
    /** A count read back beyond this is corrupt. */
    private static final int MAX_REQUESTS = 10_000_000;

    RememberedRequests {
        requests = List.copyOf(requests);
    }

    /** A connection's last request: its id, when the writer learnt of it (wall clock, ms), and its units. */
    record Request(RequestId id, long loggedAtMillis, List<Unit> units) {
        Request {
            units = List.copyOf(units);
        }
    }

    /**
     * One logged unit: its log position, its update count (-1 unknown), whether it failed everywhere,
     * its keys, whether it is a commit (else a statement or a batch's element).
     */
    record Unit(long position, long count, boolean failed, GeneratedKeys keys, boolean commit) {
    }

    private static final int FAILED = 1;
    private static final int COMMIT = 2;

    /**
     * int64 blind since, int32 request count, each (request id text, int64 logged at, int32 unit
     * count, each (int64 position, int64 count, byte flags: 1 failed, 2 commit — a version before
     * the commit flag wrote a boolean failed there —, bool has keys, then the keys)).
     */
    void write(DataOutput out) throws IOException {
        out.writeLong(blindSinceMillis);
        out.writeInt(requests.size());
        for (Request r : requests) {
            out.writeUTF(r.id().toString());
            out.writeLong(r.loggedAtMillis());
            out.writeInt(r.units().size());
            for (Unit u : r.units()) {
                out.writeLong(u.position());
                out.writeLong(u.count());
                out.writeByte((u.failed() ? FAILED : 0) | (u.commit() ? COMMIT : 0));
                out.writeBoolean(u.keys() != null);
                if (u.keys() != null) {
                    u.keys().write(out);
                }
            }
        }
    }

    static RememberedRequests read(DataInput in) throws IOException {
        long blindSince = in.readLong();
        int n = in.readInt();
        if (n < 0 || n > MAX_REQUESTS) {
            throw new IOException("bad remembered request count " + n);
        }
        List<Request> requests = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            String text = in.readUTF();
            RequestId id = RequestId.parse(text);
            if (id == null) {
                throw new IOException("bad remembered request id " + text);
            }
            long loggedAt = in.readLong();
            int m = in.readInt();
            if (m < 0) {
                throw new IOException("bad remembered unit count " + m);
            }
            List<Unit> units = new ArrayList<>(Math.min(m, 1024));
            for (int j = 0; j < m; j++) {
                long position = in.readLong();
                long count = in.readLong();
                int flags = in.readByte();
                GeneratedKeys keys = in.readBoolean() ? GeneratedKeys.read(in, RememberedKeys.MAX_ROWS) : null;
                units.add(new Unit(position, count, (flags & FAILED) != 0, keys, (flags & COMMIT) != 0));
            }
            requests.add(new Request(id, loggedAt, units));
        }
        return new RememberedRequests(blindSince, requests);
    }
}
