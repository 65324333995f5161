package org.phalanx.recoverylog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link RecoveryLog} store does when its storage fills up: entries are refused while
 * it is full (and are never in the log), appends work again once space returns, without reopening,
 * and what the refusals require of the log (a ROLLBACK for a refused COMMIT...) is written ahead of
 * later entries. Each store's class supplies the store and the way its storage fills up.
 */
abstract class DiskFullContract {
    /** Big enough that every entry needs new room in any store (SQLite pages included). */
    static final String LOGIN = "u".repeat(20_000);
    private static final Set<String> BACKENDS = Set.of("b1", "b2");

    abstract RecoveryLog open();

    /** No room left for the log. */
    abstract void fill();

    /** Room again. */
    abstract void free();

    private final List<RecoveryLog> opened = new ArrayList<>();

    RecoveryLog log() {
        RecoveryLog log = open();
        opened.add(log);
        return log;
    }

    @AfterEach
    void closeLogs() {
        free();
        opened.forEach(RecoveryLog::close);
    }

    static LogEntry statement(long position) {
        return LogEntry.statement(position, LOGIN, "INSERT INTO t VALUES (?)", List.of(position), BACKENDS);
    }

    static LogEntry write(long position, long tx) {
        return LogEntry.write(position, tx, LOGIN, "UPDATE t SET n = n + 1", List.of(), BACKENDS);
    }

    static LogEntry commit(long position, long tx) {
        return LogEntry.commit(position, tx, LOGIN, BACKENDS);
    }

    static LogEntry rollback(long position, long tx) {
        return LogEntry.rollback(position, tx, LOGIN, BACKENDS);
    }

    static LogEntry failed(long position, long failedPosition) {
        return LogEntry.failed(position, failedPosition, LOGIN);
    }

    /** The failure an append's future completes with. */
    static Throwable refusal(CompletableFuture<Void> append) {
        return assertThrows(ExecutionException.class, append::get).getCause();
    }

    @Test
    void refusedWhileFullThenWritingAgainOnceSpaceReturns() {
        RecoveryLog log = log();
        log.append(statement(1));
        log.append(statement(2));
        fill();
        assertInstanceOf(LogFullException.class, refusal(log.appendAsync(statement(3))));
        RecoveryLogException e = assertThrows(RecoveryLogException.class, () -> log.append(statement(4)));
        assertInstanceOf(LogFullException.class, e, "a full disk is told apart: " + e);
        assertEquals(2, log.lastPosition());
        free();
        log.append(statement(5)); // no reopening
        assertEquals(List.of(statement(1), statement(2), statement(5)), RecoveryLogContract.readAll(log, 0));
        assertTrue(log.settle());
        log.close();

        RecoveryLog again = log();
        assertEquals(5, again.lastPosition());
        assertEquals(List.of(statement(1), statement(2), statement(5)), RecoveryLogContract.readAll(again, 0));
        again.append(statement(6));
        assertEquals(List.of(statement(6)), RecoveryLogContract.readAll(again, 5));
    }

    @Test
    void aRefusedCommitIsRecordedAsARollbackAheadOfLaterEntries() {
        RecoveryLog log = log();
        log.append(write(1, 7));
        fill();
        assertInstanceOf(LogFullException.class, refusal(log.appendAsync(commit(2, 7))));
        free();
        log.append(statement(3));
        assertEquals(List.of(write(1, 7), rollback(2, 7), statement(3)), RecoveryLogContract.readAll(log, 0));
    }

    @Test
    void aTransactionWhoseWriteWasRefusedCannotCommit() {
        RecoveryLog log = log();
        log.append(write(1, 7));
        fill();
        assertInstanceOf(LogFullException.class, refusal(log.appendAsync(write(2, 7))));
        free();
        Throwable commit = refusal(log.appendAsync(commit(3, 7)));
        assertInstanceOf(LogFullException.class, commit);
        assertTrue(commit.getMessage().contains("cannot commit"), commit.getMessage());
        log.append(statement(4));
        assertEquals(List.of(write(1, 7), rollback(3, 7), statement(4)), RecoveryLogContract.readAll(log, 0));
    }

    @Test
    void whatIsOwedIsWrittenOnceSpaceReturnsWithoutAnotherAppend() {
        RecoveryLog log = log();
        log.append(write(1, 7));
        log.append(statement(2));
        fill();
        refusal(log.appendAsync(rollback(3, 7)));
        refusal(log.appendAsync(failed(4, 2)));
        assertFalse(log.settle(), "still full: the rollback and the failure are owed");
        free();
        assertTrue(log.settle());
        assertEquals(4, log.lastPosition());
        assertEquals(List.of(write(1, 7), statement(2), rollback(3, 7), failed(4, 2)),
                RecoveryLogContract.readAll(log, 0));
    }

    @Test
    void nothingIsOwedForWhatNeverReachedTheLog() throws Exception {
        RecoveryLog log = log();
        fill();
        refusal(log.appendAsync(write(1, 7)));
        refusal(log.appendAsync(rollback(2, 7))); // transaction 7 has nothing in the log
        refusal(log.appendAsync(statement(3)));
        log.appendAsync(failed(4, 3)).get(); // about a unit that is not in the log: nothing to record
        free();
        assertTrue(log.settle());
        log.append(statement(5));
        assertEquals(List.of(statement(5)), RecoveryLogContract.readAll(log, 0));
    }
}
