package org.phalanx.recoverylog;

import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * One entry's fields as a log storage holds them, before they are checked: a record of a segment
 * file ({@link EntryCodec}) or a row of the entries table ({@link EntryRow}). {@link EntryReader}
 * turns it into a {@link LogEntry}, the same way for every storage.
 */
interface StoredEntry {
    long position();

    long transactionId();

    /** The kind's letter as stored (S, W, C, R, F in every storage), or -1 when none is. */
    int kindLetter();

    String login();

    String sql();

    /** The parameters, decoded from the storage's form; an IOException when they are damaged. */
    List<Object> params() throws IOException;

    /** The backend names, decoded from the storage's form; an IOException when they are damaged. */
    Set<String> backends() throws IOException;

    /** The letter that stores {@code kind}. */
    static char letter(LogEntry.Kind kind) {
        return switch (kind) {
            case STATEMENT -> 'S';
            case WRITE -> 'W';
            case COMMIT -> 'C';
            case ROLLBACK -> 'R';
            case FAILED -> 'F';
        };
    }

    /** The kind a stored letter stands for. */
    static LogEntry.Kind kind(int letter) throws IOException {
        return switch (letter) {
            case 'S' -> LogEntry.Kind.STATEMENT;
            case 'W' -> LogEntry.Kind.WRITE;
            case 'C' -> LogEntry.Kind.COMMIT;
            case 'R' -> LogEntry.Kind.ROLLBACK;
            case 'F' -> LogEntry.Kind.FAILED;
            default -> throw new IOException("unknown entry kind " + letter);
        };
    }

    /** The client's id of the request that logged it, where the storage keeps it; else null. */
    default String requestId() {
        return null;
    }
}
