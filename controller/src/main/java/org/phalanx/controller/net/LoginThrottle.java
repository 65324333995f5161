package org.phalanx.controller.net;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Slows down password guessing: past {@link #FREE_FAILURES} failed logins (a mistyped password
 * costs nothing), the source address and the user name are each refused for a while after every
 * further failure — 100 ms, doubling each time, up to {@link #MAX_BACKOFF} — without their
 * password even being checked. A successful login clears both. It also says when a failure is worth a log line (the first, then each time
 * the count doubles), so a flood of wrong passwords writes a bounded number of lines.
 *
 * <p>Keyed by user name too, so guesses spread over many addresses are slowed; the price is that
 * someone guessing a user's password delays that user's own logins by at most the backoff.
 */
public final class LoginThrottle {
    static final int FREE_FAILURES = 5;
    static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** Keys kept at most (the oldest forgotten first): a flood of distinct names must not fill the heap. */
    private static final int MAX_KEYS = 10_000;

    private record Failures(int count, long blockedUntilNanos) {
    }

    private final LongSupplier clock;
    private final Map<String, Failures> byKey = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Failures> eldest) {
            return size() > MAX_KEYS;
        }
    };

    public LoginThrottle() {
        this(System::nanoTime);
    }

    LoginThrottle(LongSupplier clock) {
        this.clock = clock;
    }

    /** How long logins from {@code address} or for {@code user} are still refused (zero: go ahead). */
    public synchronized Duration wait(String address, String user) {
        long now = clock.getAsLong();
        long until = Math.max(blockedUntil(key("address", address)), blockedUntil(key("user", user)));
        return until > now ? Duration.ofNanos(until - now) : Duration.ZERO;
    }

    /** A failed login; whether it deserves a log line: the address's or the user's 1st, 2nd, 4th, 8th... */
    public synchronized boolean failed(String address, String user) {
        int byAddress = fail(key("address", address));
        int byUser = fail(key("user", user));
        return Integer.bitCount(byAddress) == 1 || Integer.bitCount(byUser) == 1;
    }

    public synchronized void succeeded(String address, String user) {
        byKey.remove(key("address", address));
        byKey.remove(key("user", user));
    }

    private int fail(String key) {
        Failures before = byKey.get(key);
        int count = before == null ? 1 : before.count() + 1;
        int doublings = count - FREE_FAILURES - 1;
        long backoff = doublings < 0 ? 0 : Math.min(MAX_BACKOFF.toNanos(), FIRST_BACKOFF.toNanos() << Math.min(doublings, 30));
        byKey.put(key, new Failures(count, clock.getAsLong() + backoff));
        return count;
    }

    private long blockedUntil(String key) {
        Failures f = byKey.get(key);
        return f == null ? Long.MIN_VALUE : f.blockedUntilNanos();
    }

    private static String key(String kind, String value) {
        return kind + ":" + value;
    }
}
