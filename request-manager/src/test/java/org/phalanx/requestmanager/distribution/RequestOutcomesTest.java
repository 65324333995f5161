package org.phalanx.requestmanager.distribution;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.phalanx.requestmanager.api.RequestId.Units.ELEMENTS;
import static org.phalanx.requestmanager.api.RequestId.Units.ONE;
import static org.phalanx.requestmanager.api.RequestId.Units.TRANSACTION;

import java.nio.file.Path;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.recoverylog.GeneratedKeys;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.requestmanager.api.RequestId;
import org.phalanx.requestmanager.api.RequestOutcome;
import org.phalanx.requestmanager.api.Result;

class RequestOutcomesTest {
    private final RequestOutcomes outcomes = new RequestOutcomes(Duration.ofMinutes(1));

    private static LogEntry statement(long position, String requestId) {
        return LogEntry.statement(position, "u", "UPDATE t SET x = x + 1", List.of(), Set.of("db1"))
                .withRequestId(requestId);
    }

    @Test
    void aLoggedStatementIsAppliedWithTheCountItHadOnceCounted() {
        outcomes.logged(statement(1, "a:1"));
        assertEquals(new RequestOutcome.Applied(-1), outcomes.outcome("a", 1, 100));
        outcomes.counted(1, 3, null);
        assertEquals(new RequestOutcome.Applied(3), outcomes.outcome("a", 1, 100));
    }

    @Test
    void aCommitIsApplied() {
        outcomes.logged(LogEntry.commit(5, 9, "u", Set.of("db1")).withRequestId("a:7"));
        assertEquals(new RequestOutcome.Applied(0), outcomes.outcome("a", 7, 100));
    }

    @Test
    void aRequestNeverLoggedIsNotApplied() {
        assertEquals(new RequestOutcome.NotApplied(), outcomes.outcome("nobody", 1, 100));
        outcomes.logged(statement(1, "a:1"));
        assertEquals(new RequestOutcome.NotApplied(), outcomes.outcome("a", 2, 100));
        // an entry without an id (a rollback the new primary logged) changes nothing
        outcomes.logged(LogEntry.rollback(2, 3, "u", Set.of()));
        assertEquals(new RequestOutcome.Applied(-1), outcomes.outcome("a", 1, 100));
    }

    @Test
    void aStatementThatFailedEverywhereIsNotApplied() {
        outcomes.logged(statement(1, "a:1"));
        outcomes.logged(LogEntry.failed(2, 1, "u"));
        assertEquals(new RequestOutcome.NotApplied(), outcomes.outcome("a", 1, 100));
    }

    @Test
    void aStatementLoggingSeveralUnitsThoughNotMarkedSoHasNoAnswer() {
        outcomes.logged(statement(2, "b:1"));
        outcomes.logged(statement(3, "b:1"));
        assertInstanceOf(RequestOutcome.Unknown.class, outcomes.outcome("b", 1, 100));
    }

    @Test
    void aBatchRunElementByElementIsAnsweredWithEachLoggedElementsCount() {
        String batch = new RequestId("a", 1, ELEMENTS, null).toString();
        outcomes.logged(statement(1, batch));
        outcomes.logged(statement(2, batch));
        outcomes.logged(statement(3, batch));
        outcomes.counted(1, 1, null);
        outcomes.counted(3, 2, null);
        outcomes.logged(LogEntry.failed(4, 2, "u")); // the second element failed on every backend
        assertEquals(new RequestOutcome.BatchApplied(new long[] {1, Statement.EXECUTE_FAILED, 2}, null),
                outcomes.outcome("a", 1, 100));
    }

    @Test
    void aBatchCutShortAnswersTheElementsTheLogHolds() {
        String batch = new RequestId("a", 1, ELEMENTS, null).toString();
        outcomes.logged(statement(1, batch));
        outcomes.counted(1, 1, null);
        outcomes.logged(statement(2, batch)); // its controller died here: never counted where it ran
        assertEquals(new RequestOutcome.BatchApplied(new long[] {1, Statement.SUCCESS_NO_INFO}, null),
                outcomes.outcome("a", 1, 100));
    }

    @Test
    void theKeysAStatementGeneratedAreAnsweredWithItsCount() throws Exception {
        outcomes.logged(statement(1, new RequestId("a", 1, ONE, List.of()).toString()));
        outcomes.counted(1, 2, keys(41, 42));
        RequestOutcome.Applied applied = (RequestOutcome.Applied) outcomes.outcome("a", 1, 100);
        assertEquals(2, applied.count());
        assertEquals(List.of(41L, 42L), column(applied.generatedKeys()));
        assertEquals("id", applied.generatedKeys().metaData().getColumnLabel(1));
    }

    @Test
    void aBatchsKeysAreEveryElementsInOrderUnlessOneWasNotKept() throws Exception {
        String batch = new RequestId("a", 1, ELEMENTS, List.of("id")).toString();
        outcomes.logged(statement(1, batch));
        outcomes.logged(statement(2, batch));
        outcomes.counted(1, 1, keys(7));
        outcomes.counted(2, 1, keys(8));
        RequestOutcome.BatchApplied applied = (RequestOutcome.BatchApplied) outcomes.outcome("a", 1, 100);
        assertEquals(List.of(7L, 8L), column(applied.generatedKeys()));

        outcomes.logged(statement(3, new RequestId("a", 2, ELEMENTS, List.of("id")).toString()));
        outcomes.logged(statement(4, new RequestId("a", 2, ELEMENTS, List.of("id")).toString()));
        outcomes.counted(3, 1, keys(9));
        outcomes.counted(4, 1, null); // more keys than remembered
        applied = (RequestOutcome.BatchApplied) outcomes.outcome("a", 2, 100);
        assertArrayEquals(new long[] {1, 1}, applied.counts());
        assertNull(applied.generatedKeys(), "some keys not kept: none answered, rather than some");
    }

    private static LogEntry element(long position, long transaction, String requestId) {
        return LogEntry.write(position, transaction, "u", "INSERT INTO t VALUES (?)", List.of(position), Set.of("db1"))
                .withRequestId(requestId);
    }

    /** A batch the controller ran as one transaction: applied (every element, with its count and keys) once its commit is logged. */
    @Test
    void aBatchRunAsOneTransactionIsAppliedWithEachElementsCountOnceItsCommitIsLogged() throws Exception {
        String batch = new RequestId("a", 1, TRANSACTION, List.of("id")).toString();
        outcomes.logged(element(1, 9, batch));
        outcomes.logged(element(2, 9, batch));
        outcomes.counted(1, 1, keys(7));
        outcomes.counted(2, 2, keys(8, 9));
        assertEquals(new RequestOutcome.NotApplied(), outcomes.outcome("a", 1, 100),
                "no commit logged: rolled back (by the next primary, if its controller died)");
        outcomes.logged(LogEntry.commit(3, 9, "u", Set.of("db1")).withRequestId(batch));
        RequestOutcome.BatchApplied applied = (RequestOutcome.BatchApplied) outcomes.outcome("a", 1, 100);
        assertArrayEquals(new long[] {1, 2}, applied.counts(), "the commit is no element");
        assertEquals(List.of(7L, 8L, 9L), column(applied.generatedKeys()));
        assertEquals(true, applied.whole());

        // as a snapshot's record: the commit stays a commit
        RequestOutcomes receiver = new RequestOutcomes(Duration.ofMinutes(1));
        receiver.replacedBySnapshot(3, roundTrip(outcomes.remembered(3)), List.of());
        RequestOutcome.BatchApplied learnt = (RequestOutcome.BatchApplied) receiver.outcome("a", 1, 100);
        assertArrayEquals(applied.counts(), learnt.counts());
        assertEquals(List.of(7L, 8L, 9L), column(learnt.generatedKeys()));
        assertEquals(true, learnt.whole());
    }

    /** Its transaction rolled back (an element failed on SQLite), the batch ran again element by element: those are the answer. */
    @Test
    void aBatchWhoseTransactionRolledBackIsAnsweredByTheElementsRunAfter() {
        RequestId id = new RequestId("a", 1);
        outcomes.logged(element(1, 9, id.logging(TRANSACTION).toString()));
        outcomes.logged(LogEntry.rollback(2, 9, "u", Set.of("db1")));
        outcomes.logged(statement(3, id.logging(ELEMENTS).toString()));
        outcomes.counted(3, 1, null);
        outcomes.logged(statement(4, id.logging(ELEMENTS).toString()));
        outcomes.logged(LogEntry.failed(5, 4, "u"));
        assertEquals(new RequestOutcome.BatchApplied(new long[] {1, Statement.EXECUTE_FAILED}, null),
                outcomes.outcome("a", 1, 100));
    }

    @Test
    void countsAndKeysOutliveARestartThroughTheJournal(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("request-outcomes");
        LogEntry keyed = statement(1, new RequestId("a", 1, ONE, List.of()).toString());
        LogEntry batchElement = statement(2, new RequestId("b", 5, ELEMENTS, null).toString());
        try (OutcomeJournal journal = new OutcomeJournal(file)) {
            RequestOutcomes before = new RequestOutcomes(Duration.ofMinutes(1), journal);
            before.logged(keyed);
            before.logged(batchElement);
            before.counted(1, 1, keys(100));
            before.counted(2, 3, null);
        }
        // restarted: the copy's replay hands the entries over again, the backends do not apply them again
        try (OutcomeJournal journal = new OutcomeJournal(file)) {
            RequestOutcomes after = new RequestOutcomes(Duration.ofMinutes(1), journal);
            after.logged(keyed);
            after.logged(batchElement);
            RequestOutcome.Applied applied = (RequestOutcome.Applied) after.outcome("a", 1, 100);
            assertEquals(1, applied.count());
            assertEquals(List.of(100L), column(applied.generatedKeys()));
            assertEquals(new RequestOutcome.BatchApplied(new long[] {3}, null), after.outcome("b", 5, 100));
        }
        // without the journal (as before it existed) the count was lost with the process
        RequestOutcomes memoryOnly = new RequestOutcomes(Duration.ofMinutes(1));
        memoryOnly.logged(keyed);
        assertEquals(new RequestOutcome.Applied(-1), memoryOnly.outcome("a", 1, 100));
    }

    @Test
    void thePrimarysCountBeforeItsEntryIsHandedOverIsKeptForIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("request-outcomes");
        try (OutcomeJournal journal = new OutcomeJournal(file)) {
            RequestOutcomes primary = new RequestOutcomes(Duration.ofMinutes(1), journal);
            primary.logged(statement(1, "a:1"));
            primary.counted(2, 4, keys(9)); // run on a backend before the group's log committed it
            primary.logged(statement(2, new RequestId("b", 1, ONE, List.of()).toString()));
            assertEquals(4, ((RequestOutcome.Applied) primary.outcome("b", 1, 100)).count());
            primary.counted(3, 1, null); // then killed after its backend committed, before the entry was handed over
        }
        try (OutcomeJournal journal = new OutcomeJournal(file)) {
            RequestOutcomes restarted = new RequestOutcomes(Duration.ofMinutes(1), journal);
            restarted.logged(statement(2, new RequestId("b", 1, ONE, List.of()).toString()));
            restarted.logged(statement(3, "c:1"));
            assertEquals(List.of(9L), column(((RequestOutcome.Applied) restarted.outcome("b", 1, 100)).generatedKeys()));
            assertEquals(new RequestOutcome.Applied(1), restarted.outcome("c", 1, 100));
        }
    }

    @Test
    void afterASnapshotARequestSentBeforeItAndNotKnownHasNoAnswer() {
        outcomes.replacedBySnapshot(10, null, List.of(statement(11, "a:1"), statement(12, "b:1")));
        outcomes.logged(statement(12, "b:1")); // the copy's replay after the snapshot: seen already, once
        assertEquals(new RequestOutcome.Applied(-1), outcomes.outcome("b", 1, 100));
        assertEquals(new RequestOutcome.Applied(-1), outcomes.outcome("a", 1, 100));
        assertEquals(new RequestOutcome.NotApplied(), outcomes.outcome("a", 2, 100), "after a:1 in the log: not logged");
        // c's request may have been logged before position 10: compacted away, unknown here
        assertInstanceOf(RequestOutcome.Unknown.class, outcomes.outcome("c", 1, 10_000));
        assertEquals(new RequestOutcome.NotApplied(), outcomes.outcome("c", 1, 0), "sent after the snapshot");
    }

    /**
     * A member that installs another's snapshot (or restarts from its own) learns what that member
     * remembered of the requests whose entries the snapshot's dump replaced: their counts and keys,
     * a batch cut short, a failed write; a request of a connection not among them is not applied.
     */
    @Test
    void aSnapshotCarriesTheRequestsItsDumpReplacedWithTheirCountsAndKeys() throws Exception {
        RequestOutcomes writer = new RequestOutcomes(Duration.ofMinutes(1));
        writer.logged(statement(1, new RequestId("a", 1, ONE, List.of()).toString()));
        writer.counted(1, 1, keys(41));
        String batch = new RequestId("b", 3, ELEMENTS, null).toString();
        writer.logged(statement(2, batch));
        writer.counted(2, 1, null);
        writer.logged(statement(3, "c:2"));
        writer.logged(LogEntry.failed(4, 3, "u"));
        writer.logged(statement(5, batch)); // the batch's second element: after the dump
        writer.logged(statement(6, "d:1")); // after the dump
        writer.counted(5, 1, null);
        RememberedRequests remembered = roundTrip(writer.remembered(4));
        assertEquals(3, remembered.requests().size(), "the requests with units up to the dump's position");

        RequestOutcomes receiver = new RequestOutcomes(Duration.ofMinutes(1));
        receiver.replacedBySnapshot(4, remembered, List.of(statement(5, batch), statement(6, "d:1")));
        receiver.counted(5, 1, null); // replayed on its backends
        RequestOutcome.Applied a = (RequestOutcome.Applied) receiver.outcome("a", 1, 10_000);
        assertEquals(1, a.count());
        assertEquals(List.of(41L), column(a.generatedKeys()));
        assertEquals(new RequestOutcome.BatchApplied(new long[] {1, 1}, null), receiver.outcome("b", 3, 10_000),
                "the element before the dump and the one after it");
        assertEquals(new RequestOutcome.NotApplied(), receiver.outcome("c", 2, 10_000), "failed everywhere");
        assertEquals(new RequestOutcome.Applied(-1), receiver.outcome("d", 1, 10_000));
        assertEquals(new RequestOutcome.NotApplied(), receiver.outcome("e", 1, 10_000),
                "a connection the writer knew nothing of logged nothing: no blind spot is left");

        // a member that knew the batch's first element before it fell behind learns the rest: all three elements
        RequestOutcomes behind = new RequestOutcomes(Duration.ofMinutes(1));
        String longBatch = new RequestId("f", 1, ELEMENTS, null).toString();
        behind.logged(statement(1, longBatch));
        behind.counted(1, 1, null);
        RequestOutcomes full = new RequestOutcomes(Duration.ofMinutes(1));
        full.logged(statement(1, longBatch));
        full.counted(1, 1, null);
        full.logged(statement(7, longBatch));
        full.counted(7, 1, null);
        full.logged(statement(8, longBatch));
        full.counted(8, 1, null);
        behind.replacedBySnapshot(8, roundTrip(full.remembered(8)), List.of());
        assertEquals(new RequestOutcome.BatchApplied(new long[] {1, 1, 1}, null), behind.outcome("f", 1, 10_000));

        // the writer's own blind spot goes with its record
        RequestOutcomes blind = new RequestOutcomes(Duration.ofMinutes(1));
        blind.replacedBySnapshot(10, null, List.of());
        RequestOutcomes next = new RequestOutcomes(Duration.ofMinutes(1));
        next.replacedBySnapshot(12, roundTrip(blind.remembered(12)), List.of());
        assertInstanceOf(RequestOutcome.Unknown.class, next.outcome("e", 1, 10_000));
    }

    private static RememberedRequests roundTrip(RememberedRequests r) throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        r.write(new java.io.DataOutputStream(bytes));
        return RememberedRequests.read(new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray())));
    }

    private static GeneratedKeys keys(long... values) {
        List<List<Object>> rows = new java.util.ArrayList<>();
        for (long v : values) {
            rows.add(List.of(v));
        }
        return new GeneratedKeys(List.of(new GeneratedKeys.Column("id", Types.BIGINT, "INTEGER")), rows);
    }

    private static List<Object> column(Result.Cached keys) {
        return keys.rows().stream().map(r -> r[0]).toList();
    }

    @Test
    void aLaterRequestReplacesTheEarlierAndAnOlderQuestionHasNoAnswer() {
        outcomes.logged(statement(1, "a:1"));
        outcomes.logged(statement(2, "a:4"));
        outcomes.counted(1, 1, null); // too late for request 1: forgotten
        assertEquals(new RequestOutcome.Applied(-1), outcomes.outcome("a", 4, 100));
        assertInstanceOf(RequestOutcome.Unknown.class, outcomes.outcome("a", 1, 100));
    }

    @Test
    void aQuestionOlderThanTheRetentionHasNoAnswer() {
        assertInstanceOf(RequestOutcome.Unknown.class, outcomes.outcome("a", 1, Duration.ofMinutes(2).toMillis()));
        assertInstanceOf(RequestOutcome.Unknown.class, outcomes.outcome("a", 1, -1));
    }

    @Test
    void requestIdsReadBackAsWritten() {
        assertEquals(new RequestId("s", 3), RequestId.parse("s:3"));
        assertEquals(new RequestId("s", 3, ELEMENTS, null), RequestId.parse(new RequestId("s", 3).logging(ELEMENTS).toString()));
        RequestId named = new RequestId("s", 3, ELEMENTS, List.of("id", "odd:name,x"));
        assertEquals(named, RequestId.parse(named.toString()), named.toString());
        assertEquals(new RequestId("s", 3, ONE, List.of()), RequestId.parse("s:3:keys"));
        assertEquals(new RequestId("s", 3, TRANSACTION, List.of("id")), RequestId.parse("s:3:whole:keys=id"));
        assertEquals(null, RequestId.parse("s:3:keys=%zz"));
        assertEquals(null, RequestId.parse("s:3:other"));
        assertEquals(null, RequestId.parse("garbage"));
        assertEquals(null, RequestId.parse("s:x"));
        assertEquals(null, RequestId.parse(null));
    }
}
