package org.phalanx.controller.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.phalanx.requestmanager.verify.OnDifference;
import org.phalanx.requestmanager.verify.VerificationRequest;

/**
 * A virtual database's {@code <verification>}: verify its replicas this often, this way.
 *
 * @param every         the period (the first run one period after the start)
 * @param rowsPerSecond most rows compared per second; 0 for no limit
 * @param chunkRows     rows per chunk
 * @param onDifference  what to do about an outvoted replica
 * @param tables        the tables to verify; empty for all
 * @param location      where the element is, for messages
 */
public record VerificationSchedule(Duration every, long rowsPerSecond, int chunkRows, OnDifference onDifference,
                                   List<String> tables, ConfigLocation location) {
    public VerificationSchedule {
        Objects.requireNonNull(every, "every");
        Objects.requireNonNull(onDifference, "onDifference");
        tables = List.copyOf(tables);
    }

    /** One run's request (a rebuild's dump goes to {@code dumpDir}). */
    public VerificationRequest request(java.nio.file.Path dumpDir) {
        return new VerificationRequest(tables, rowsPerSecond, chunkRows, onDifference, dumpDir);
    }
}
