package org.phalanx.requestmanager.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.WaitPolicy;
import org.phalanx.requestmanager.backend.Backend;

class ReplicatedWriteTest {
    private final List<Backend> backends = new ArrayList<>();
    private final List<CompletableFuture<String>> futures = new ArrayList<>();
    private final Map<Backend, SQLException> diverged = new LinkedHashMap<>();
    private final Map<Backend, SQLException> appliedAlone = new LinkedHashMap<>();

    private ReplicatedWrite<String> write(WaitPolicy policy, int n) {
        Map<Backend, CompletableFuture<String>> map = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            Backend b = new Backend(BackendConfig.builder("b" + i, "jdbc:none:" + i).poolSize(1).build(), Duration.ofSeconds(1), x -> { });
            CompletableFuture<String> f = new CompletableFuture<>();
            backends.add(b);
            futures.add(f);
            map.put(b, f);
        }
        // a success's "update count" is its length: "b0" and "b1" agree, "b22" counted other rows
        return new ReplicatedWrite<>(map, policy, String::length, new ReplicatedWrite.Disagreement() {
            @Override
            public void failed(Backend backend, SQLException error) {
                diverged.put(backend, error);
            }

            @Override
            public void succeeded(Backend backend, SQLException agreedError) {
                appliedAlone.put(backend, agreedError);
            }
        });
    }

    private static boolean answersWithin(ReplicatedWrite<String> w, long millis) {
        CompletableFuture<String> f = CompletableFuture.supplyAsync(() -> {
            try {
                return w.await();
            } catch (SQLException e) {
                throw new RuntimeException(e);
            }
        });
        try {
            f.get(millis, TimeUnit.MILLISECONDS);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void firstAnswersWithTheFirstSuccess() throws Exception {
        ReplicatedWrite<String> w = write(WaitPolicy.FIRST, 3);
        assertFalse(answersWithin(w, 50));
        futures.get(1).complete("b1");
        assertEquals("b1", w.await());
    }

    @Test
    void majorityNeedsMoreThanHalf() throws Exception {
        ReplicatedWrite<String> w = write(WaitPolicy.MAJORITY, 3);
        futures.get(0).complete("b0");
        assertFalse(answersWithin(w, 50));
        futures.get(2).complete("b2");
        assertEquals("b0", w.await());
    }

    @Test
    void allWaitsForEveryBackend() throws Exception {
        ReplicatedWrite<String> w = write(WaitPolicy.ALL, 2);
        futures.get(0).complete("b0");
        assertFalse(answersWithin(w, 50));
        futures.get(1).complete("b1");
        assertEquals("b0", w.await());
    }

    private static SQLException unique() {
        return new SQLException("UNIQUE constraint failed", "23505");
    }

    @Test
    void aRefusalOfTheMajorityIsTheClientsErrorAndTheBackendThatAppliedItDisagrees() throws Exception {
        ReplicatedWrite<String> w = write(WaitPolicy.ALL, 3);
        futures.get(0).complete("b0");
        futures.get(1).completeExceptionally(unique());
        futures.get(2).completeExceptionally(new SQLException("Duplicate entry", "23000")); // same class
        SQLException e = assertThrows(SQLException.class, w::await);
        assertEquals("23505", e.getSQLState());
        assertTrue(diverged.isEmpty());
        assertEquals(java.util.Set.of(backends.get(0)), appliedAlone.keySet());
        assertEquals(java.util.Set.of(backends.get(1), backends.get(2)), w.verdict().get().agreeing());
    }

    @Test
    void aTieNotYetAnsweredGoesToTheRefusal() {
        ReplicatedWrite<String> w = write(WaitPolicy.ALL, 2);
        futures.get(0).complete("b0");
        futures.get(1).completeExceptionally(unique());
        assertThrows(SQLException.class, w::await);
        assertEquals(java.util.Set.of(backends.get(0)), appliedAlone.keySet());
        assertTrue(diverged.isEmpty());
    }

    @Test
    void aTieAlreadyAnsweredKeepsTheAnswer() throws Exception {
        ReplicatedWrite<String> w = write(WaitPolicy.FIRST, 2);
        futures.get(0).complete("b0");
        assertEquals("b0", w.await());
        futures.get(1).completeExceptionally(unique());
        assertEquals(java.util.Set.of(backends.get(1)), diverged.keySet());
        assertTrue(appliedAlone.isEmpty());
    }

    @Test
    void refusalsOfDifferentClassesChangedNothingAndDisableNobody() {
        ReplicatedWrite<String> w = write(WaitPolicy.ALL, 3);
        futures.get(0).completeExceptionally(new SQLException("division by zero", "22012"));
        futures.get(1).completeExceptionally(new SQLException("syntax", "42601"));
        futures.get(2).completeExceptionally(new SQLException("division by zero", "22012"));
        SQLException e = assertThrows(SQLException.class, w::await);
        assertEquals("22012", e.getSQLState(), "the most common refusal");
        assertTrue(diverged.isEmpty());
        assertTrue(appliedAlone.isEmpty());
    }

    @Test
    void aSuccessThatCountedOtherRowsDisagrees() throws Exception {
        ReplicatedWrite<String> w = write(WaitPolicy.ALL, 3);
        futures.get(0).complete("b0");
        futures.get(1).complete("b22");
        futures.get(2).complete("b2");
        assertEquals("b0", w.await());
        assertEquals(java.util.Set.of(backends.get(1)), diverged.keySet());
    }

    @Test
    void aFailureWhereOthersSucceededIsReportedAsDivergence() throws Exception {
        ReplicatedWrite<String> w = write(WaitPolicy.FIRST, 3);
        futures.get(0).complete("b0");
        assertEquals("b0", w.await());
        SQLException broken = new SQLException("disk full", "53100");
        futures.get(1).completeExceptionally(broken);
        assertTrue(diverged.isEmpty(), "decided only once every backend has finished");
        futures.get(2).complete("b2");
        assertEquals(Map.of(backends.get(1), broken), diverged);
    }

    @Test
    void failingEverywhereIsTheClientsErrorAndNobodysDivergence() {
        ReplicatedWrite<String> w = write(WaitPolicy.FIRST, 2);
        futures.get(0).completeExceptionally(unique());
        futures.get(1).completeExceptionally(unique());
        SQLException e = assertThrows(SQLException.class, w::await);
        assertEquals("23505", e.getSQLState());
        assertTrue(diverged.isEmpty());
    }

    @Test
    void majorityStillAnswersWhenFailuresMakeItUnreachable() throws Exception {
        ReplicatedWrite<String> w = write(WaitPolicy.MAJORITY, 3);
        futures.get(0).complete("b0");
        futures.get(1).completeExceptionally(new SQLException("gone", "08006"));
        futures.get(2).completeExceptionally(new SQLException("gone", "08006"));
        assertEquals("b0", w.await());
        assertEquals(2, diverged.size());
    }
}
