package org.phalanx.recoverylog;

import java.nio.file.Path;

/**
 * What opening a file log cut away: an incomplete last record left by a crash in the middle of a
 * write (kill -9, power loss). Only entries that were never acknowledged can be in it, because an
 * append returns only after its record is complete and synced.
 *
 * @param file         the segment that was truncated
 * @param offset       where the incomplete record started (the file's new length)
 * @param bytesRemoved how many bytes were cut
 * @param reason       what was wrong with them
 */
public record TailRepair(Path file, long offset, long bytesRemoved, String reason) {
    @Override
    public String toString() {
        return "truncated " + bytesRemoved + " bytes at offset " + offset + " of " + file + " (" + reason + ")";
    }
}
