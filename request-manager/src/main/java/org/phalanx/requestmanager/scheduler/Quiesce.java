package org.phalanx.requestmanager.scheduler;

/** Holds the whole-database scheduler lock: no write is ordered until it is closed. */
@FunctionalInterface
public interface Quiesce extends AutoCloseable {
    @Override
    void close();
}
