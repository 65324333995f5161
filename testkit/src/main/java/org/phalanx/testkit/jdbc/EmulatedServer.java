package org.phalanx.testkit.jdbc;

import java.sql.SQLException;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The capacity of one emulated database server: K execution slots (a fair semaphore, so
 * statements are served in arrival order) and a service time per statement class. A statement
 * takes a slot, really runs on the wrapped database, then keeps the slot until its service time
 * has passed since it started (a statement that really takes longer keeps it longer). This models
 * a remote server with K workers; it says nothing about the real engine's speed.
 */
public final class EmulatedServer implements Capacity {
    private static final Map<String, EmulatedServer> SERVERS = new ConcurrentHashMap<>();
    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    private final String name;
    private final int slots;
    private final Semaphore free;
    private final CostModel costs;
    private final LongAdder executions = new LongAdder();
    private final LongAdder busyNanos = new LongAdder();
    private final LongAdder waitNanos = new LongAdder();
    /** CPU time the real engine used inside the calls (it runs in this process, on the caller's thread). */
    private final LongAdder engineCpuNanos = new LongAdder();
    /** Per statement class: executions and busy nanoseconds. */
    private final Map<String, LongAdder[]> perClass = new ConcurrentHashMap<>();

    private EmulatedServer(String name, int slots, CostModel costs) {
        this.name = name;
        this.slots = slots;
        this.free = new Semaphore(slots, true);
        this.costs = costs;
    }

    /** The server of that name in this JVM, created on first use (every pool of a backend shares it). */
    static EmulatedServer named(String name, int slots, CostModel costs) {
        EmulatedServer s = SERVERS.computeIfAbsent(name, n -> new EmulatedServer(n, slots, costs));
        EmulationStats.startIfAsked();
        return s;
    }

    static Collection<EmulatedServer> all() {
        return SERVERS.values();
    }

    public String name() {
        return name;
    }

    public int slots() {
        return slots;
    }

    long executions() {
        return executions.sum();
    }

    long busyNanos() {
        return busyNanos.sum();
    }

    long waitNanos() {
        return waitNanos.sum();
    }

    long engineCpuNanos() {
        return engineCpuNanos.sum();
    }

    /** Class name to {executions, busy nanoseconds}. */
    Map<String, long[]> perClass() {
        Map<String, long[]> m = new java.util.TreeMap<>();
        perClass.forEach((k, v) -> m.put(k, new long[] {v[0].sum(), v[1].sum()}));
        return m;
    }

    /** Runs a real call outside the slots (preparing a statement), counting its CPU as the engine's. */
    @Override
    public <T> T prepare(RealCall<T> call) throws SQLException {
        long cpu = THREADS.getCurrentThreadCpuTime();
        try {
            return call.call();
        } finally {
            engineCpuNanos.add(THREADS.getCurrentThreadCpuTime() - cpu);
        }
    }

    /** Runs {@code call} in a slot and holds the slot for {@code times} services of the SQL's class. */
    @Override
    public <T> T execute(String sql, int times, RealCall<T> call) throws SQLException {
        return execute(costs.classify(sql), times, call);
    }

    private <T> T execute(CostModel.StatementClass c, int times, RealCall<T> call) throws SQLException {
        long arrived = System.nanoTime();
        free.acquireUninterruptibly();
        long start = System.nanoTime();
        long cpu = THREADS.getCurrentThreadCpuTime();
        try {
            return call.call();
        } finally {
            engineCpuNanos.add(THREADS.getCurrentThreadCpuTime() - cpu);
            sleepUntil(start + c.serviceNanos() * times);
            long end = System.nanoTime();
            free.release();
            executions.add(times);
            busyNanos.add(end - start);
            waitNanos.add(start - arrived);
            LongAdder[] c2 = perClass.computeIfAbsent(c.name(), k -> new LongAdder[] {new LongAdder(), new LongAdder()});
            c2[0].add(times);
            c2[1].add(end - start);
        }
    }

    private static void sleepUntil(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }
}
