package org.phalanx.recoverylog;

import java.util.Iterator;

/** An iterator over a resource (a file, a database cursor) that must be closed. */
public interface CloseableIterator<T> extends Iterator<T>, AutoCloseable {
    /** Releases the file or cursor; never throws a checked exception. */
    @Override
    void close();
}
