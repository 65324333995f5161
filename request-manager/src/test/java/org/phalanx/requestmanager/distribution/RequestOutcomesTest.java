package org.phalanx.requestmanager.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.requestmanager.api.RequestId;
import org.phalanx.requestmanager.api.RequestOutcome;

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
        outcomes.counted(1, 3);
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
    void aRequestWithSeveralUnitsHasNoAnswer() {
        outcomes.logged(statement(1, new RequestId("a", 1, true).toString()));
        assertInstanceOf(RequestOutcome.Unknown.class, outcomes.outcome("a", 1, 100));
        outcomes.logged(statement(2, "b:1"));
        outcomes.logged(statement(3, "b:1")); // a second unit of the same request, though not marked so
        assertInstanceOf(RequestOutcome.Unknown.class, outcomes.outcome("b", 1, 100));
        // failing one of them does not make the whole request unapplied
        outcomes.logged(LogEntry.failed(4, 3, "u"));
        assertInstanceOf(RequestOutcome.Unknown.class, outcomes.outcome("b", 1, 100));
    }

    @Test
    void aLaterRequestReplacesTheEarlierAndAnOlderQuestionHasNoAnswer() {
        outcomes.logged(statement(1, "a:1"));
        outcomes.logged(statement(2, "a:4"));
        outcomes.counted(1, 1); // too late for request 1: forgotten
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
        assertEquals(new RequestId("s", 3, false), RequestId.parse("s:3"));
        assertEquals(new RequestId("s", 3, true), RequestId.parse(new RequestId("s", 3, false).asSeveral().toString()));
        assertEquals(null, RequestId.parse("garbage"));
        assertEquals(null, RequestId.parse("s:x"));
        assertEquals(null, RequestId.parse(null));
    }
}
