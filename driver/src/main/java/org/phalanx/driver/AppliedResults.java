package org.phalanx.driver;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import org.phalanx.protocol.BatchResult;
import org.phalanx.protocol.ErrorReply;
import org.phalanx.protocol.UpdateCount;

/**
 * The result a request lost with its controller had, made from the next controller's OUTCOME answer
 * that it was applied (exactly-once retries, docs/distribution.md): what the caller would have got
 * from the first execution, or an exception saying exactly what was applied.
 */
final class AppliedResults {
    private AppliedResults() {
    }

    /** A statement's update count, with the keys it generated when it asked for them. */
    static ProtocolConnection.ExecuteReply ofStatement(ProtocolConnection.Applied applied, boolean wantsKeys,
                                                        String lost) throws SQLException {
        UpdateCount u = applied.updateCount();
        if (u == null) {
            throw Failover.outcomeUnknown("statement", lost + " (answered as for a batch)");
        }
        if (!wantsKeys) {
            return new ProtocolConnection.ExecuteReply(null, new UpdateCount(u.count(), null));
        }
        if (u.generatedKeys() == null) {
            throw Failover.appliedKeysUnknown(lost); // applied: never sent again
        }
        return new ProtocolConnection.ExecuteReply(null, u);
    }

    /**
     * A batch's counts. Applied as one unit: every element succeeded ({@code SUCCESS_NO_INFO}, the
     * counts were not kept). Run element by element: the count of each element the log holds; when
     * it holds fewer than {@code size}, or one failed on every backend, a result with an error
     * (08006) naming them, which the caller sees as {@code BatchUpdateException} with those counts:
     * the elements after the last one counted were never applied, nor ever will be.
     */
    static BatchResult ofBatch(ProtocolConnection.Applied applied, int size, boolean wantsKeys, String lost)
            throws SQLException {
        BatchResult b = applied.batch();
        if (b == null) {
            if (wantsKeys) {
                throw Failover.appliedKeysUnknown(lost);
            }
            long[] counts = new long[size];
            Arrays.fill(counts, Statement.SUCCESS_NO_INFO);
            return new BatchResult(counts, null);
        }
        long[] counts = b.counts();
        int failed = indexOf(counts, Statement.EXECUTE_FAILED);
        if (counts.length < size || failed >= 0) {
            String what = failed >= 0 ? "element " + (failed + 1) + " failed on every backend (its error is lost)"
                    : "the batch was cut short after element " + counts.length + " of " + size
                    + ": the elements after it were not applied";
            return new BatchResult(counts, new ErrorReply(SqlExceptions.CONNECTION_BROKEN, 0, what + "; " + lost),
                    b.generatedKeys());
        }
        if (wantsKeys && b.generatedKeys() == null) {
            throw Failover.appliedKeysUnknown(lost);
        }
        return b;
    }

    private static int indexOf(long[] counts, long value) {
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == value) {
                return i;
            }
        }
        return -1;
    }
}
