package org.phalanx.requestmanager.balancer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.backend.Backend;

class ReadAdmissionTest {
    @TempDir
    Path dir;
    private final ExecutorService readers = Executors.newCachedThreadPool();
    private final List<Backend> backends = new ArrayList<>();
    private final AtomicReference<ReadAdmission> admission = new AtomicReference<>();

    @AfterEach
    void stop() {
        readers.shutdownNow();
        backends.forEach(b -> b.disable("test over"));
    }

    private ReadAdmission admission() {
        admission.set(new ReadAdmission(new RoundRobin()));
        return admission.get();
    }

    /** An enabled SQLite backend telling the admission when its requests end, as the request manager wires it. */
    private Backend backend(String name, int maxPending) throws Exception {
        BackendConfig c = BackendConfig.builder(name, "jdbc:sqlite:" + dir.resolve(name + ".db")).poolSize(2)
                .maxPending(maxPending).build();
        Backend b = new Backend(c, Duration.ofSeconds(5), x -> { }, x -> admission.get().ended(x));
        b.enable();
        backends.add(b);
        return b;
    }

    private CompletableFuture<Backend> admitLater(ReadAdmission a, List<Backend> candidates) throws Exception {
        CompletableFuture<Backend> f = CompletableFuture.supplyAsync(() -> {
            try {
                return a.admit(candidates, 0);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, readers);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (a.waiting() == 0 && !f.isDone() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        return f;
    }

    @Test
    void withoutALimitNoReadWaits() throws Exception {
        ReadAdmission a = admission();
        Backend b = backend("a", 0);
        for (int i = 0; i < 50; i++) {
            assertSame(b, a.admit(List.of(b), 0));
        }
        assertEquals(50, b.pending());
        assertEquals(0, a.waiting());
    }

    @Test
    void aReadWaitsForRoomAndTakesTheFirstBackendThatHasSome() throws Exception {
        ReadAdmission a = admission();
        Backend x = backend("x", 1);
        Backend y = backend("y", 1);
        List<Backend> both = List.of(x, y);
        Backend first = a.admit(both, 0);
        Backend second = a.admit(both, 0);
        assertTrue(first != second, "the second read goes to the backend with room");
        CompletableFuture<Backend> third = admitLater(a, both);
        assertEquals(1, a.waiting());
        assertFalse(third.isDone(), "both backends are at maxPending");
        second.readFinished();
        assertSame(second, third.get(10, TimeUnit.SECONDS), "late binding: the backend that had room first");
        assertEquals(1, second.pending(), "the waiting read is counted where it went");
        assertEquals(0, a.waiting());
    }

    @Test
    void writesAreNeverHeldBackButCount() throws Exception {
        ReadAdmission a = admission();
        Backend x = backend("x", 1);
        x.readStarted(); // e.g. a read inside a transaction: goes whatever the room
        assertEquals(1, x.pending());
        CompletableFuture<Backend> read = admitLater(a, List.of(x));
        assertFalse(read.isDone(), "the request already running there fills the backend");
        x.readFinished();
        assertSame(x, read.get(10, TimeUnit.SECONDS));
    }

    @Test
    void waitingReadsAreServedInArrivalOrderAndOnlyWhereTheyCanRun() throws Exception {
        ReadAdmission a = admission();
        Backend x = backend("x", 1);
        Backend y = backend("y", 1);
        assertSame(x, a.admit(List.of(x), 0));
        assertSame(y, a.admit(List.of(y), 0));
        CompletableFuture<Backend> onlyX = admitLater(a, List.of(x));
        CompletableFuture<Backend> either = admitLater(a, List.of(x, y));
        while (a.waiting() < 2) {
            Thread.sleep(1);
        }
        y.readFinished(); // the first waiter cannot run on y: the second gets it
        assertSame(y, either.get(10, TimeUnit.SECONDS));
        assertFalse(onlyX.isDone());
        x.readFinished();
        assertSame(x, onlyX.get(10, TimeUnit.SECONDS));
    }

    @Test
    void aReadThatWaitsLongerThanItsQueryTimeoutFailsWithHyt00() throws Exception {
        ReadAdmission a = admission();
        Backend x = backend("x", 1);
        a.admit(List.of(x), 0);
        SQLTimeoutException e = assertThrows(SQLTimeoutException.class, () -> a.admit(List.of(x), 1));
        assertEquals("HYT00", e.getSQLState());
        assertEquals(0, a.waiting(), "it left the queue");
        assertEquals(1, x.pending(), "and counted nothing");
    }

    @Test
    void aReadWhoseBackendsAllLeaveServiceIsReturnedToBeRoutedAgain() throws Exception {
        ReadAdmission a = admission();
        Backend x = backend("x", 1);
        a.admit(List.of(x), 0);
        CompletableFuture<Backend> read = admitLater(a, List.of(x));
        x.disable("test: taken out of service");
        assertNull(read.get(10, TimeUnit.SECONDS));
        assertEquals(0, a.waiting());
    }
}
