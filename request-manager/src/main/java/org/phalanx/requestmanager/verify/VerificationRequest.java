package org.phalanx.requestmanager.verify;

import java.nio.file.Path;
import java.util.List;

/**
 * What to verify and how.
 *
 * @param tables        table names; empty for every table of the virtual database
 * @param rowsPerSecond most rows compared per second (per replica), 0 for no limit
 * @param chunkRows     rows per chunk
 * @param onDifference  what to do about an outvoted replica
 * @param dumpDir       where {@link OnDifference#REBUILD} writes its temporary dump; null for the temporary folder
 */
public record VerificationRequest(List<String> tables, long rowsPerSecond, int chunkRows, OnDifference onDifference,
                                  Path dumpDir) {
    public static final int DEFAULT_CHUNK_ROWS = 1000;

    public VerificationRequest {
        tables = List.copyOf(tables);
        if (rowsPerSecond < 0) {
            throw new IllegalArgumentException("rowsPerSecond cannot be negative: " + rowsPerSecond);
        }
        if (chunkRows < 1) {
            throw new IllegalArgumentException("chunkRows must be at least 1, not " + chunkRows);
        }
        java.util.Objects.requireNonNull(onDifference, "onDifference");
    }

    /** Every table (or those named), no limit, report only. */
    public static VerificationRequest of(List<String> tables) {
        return new VerificationRequest(tables, 0, DEFAULT_CHUNK_ROWS, OnDifference.REPORT, null);
    }
}
