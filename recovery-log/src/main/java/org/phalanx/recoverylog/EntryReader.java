package org.phalanx.recoverylog;

import java.io.IOException;
import java.util.NoSuchElementException;

/**
 * Reads a log's entries in order, whichever storage holds them: the storage hands over each
 * entry's stored fields ({@link Source}), and this checks them and makes the {@link LogEntry}, so
 * the file and JDBC logs accept and refuse exactly the same entries. Any failure closes the read.
 */
final class EntryReader implements CloseableIterator<LogEntry> {

    /** A storage's cursor over its stored entries, in position order. */
    interface Source extends AutoCloseable {
        /** The next stored entry, or null after the last. A storage failure is a {@link RecoveryLogException}. */
        StoredEntry next();

        /** The storage's exception for a stored entry whose fields do not make an entry. */
        RecoveryLogException damaged(StoredEntry entry, IOException reason);

        @Override
        void close();
    }

    private final Source source;
    private LogEntry next;
    private boolean closed;

    EntryReader(Source source) {
        this.source = source;
    }

    /** The entry {@code stored} holds; an IOException says why it holds none. */
    static LogEntry entry(StoredEntry stored) throws IOException {
        LogEntry.Kind kind = StoredEntry.kind(stored.kindLetter());
        try {
            return new LogEntry(stored.position(), stored.transactionId(), stored.login(), kind, stored.sql(),
                    stored.params(), stored.backends(), stored.requestId());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IOException("invalid entry: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        if (closed) {
            return false;
        }
        try {
            StoredEntry stored = source.next();
            if (stored == null) {
                close();
                return false;
            }
            try {
                next = entry(stored);
            } catch (IOException e) {
                throw source.damaged(stored, e);
            }
            return true;
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public LogEntry next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        LogEntry e = next;
        next = null;
        return e;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            source.close();
        }
    }
}
