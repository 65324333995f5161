package org.phalanx.recoverylog;

import java.nio.file.Path;

/**
 * A log file holds a damaged record somewhere other than its torn tail. Such a record is never
 * skipped: the entries after it could not be trusted to follow it, so the log refuses to open
 * (or the read fails) and names the place.
 */
public final class LogCorruptedException extends RecoveryLogException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long offset;

    public LogCorruptedException(Path file, long offset, String reason) {
        super("recovery log file " + file + " is corrupt at offset " + offset + ": " + reason);
        this.file = file;
        this.offset = offset;
    }

    public Path file() {
        return file;
    }

    public long offset() {
        return offset;
    }
}
