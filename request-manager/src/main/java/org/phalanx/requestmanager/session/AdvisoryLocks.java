package org.phalanx.requestmanager.session;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Named locks an application takes for itself (PostgreSQL advisory locks, MariaDB
 * {@code GET_LOCK}), held by a session across the whole virtual database. Kept here, in the
 * controller, because on the backends each would be held by whichever pooled connection ran the
 * call, and released by whichever ran the unlock. A session may take a lock it holds again; it
 * holds it until it has released it as many times, or its transaction ends (transaction-level
 * locks), or it closes.
 */
final class AdvisoryLocks {
    /** Who holds a lock, and how many times at session and at transaction level. */
    private static final class Holder {
        final Object session;
        int sessionCount;
        int transactionCount;

        Holder(Object session) {
            this.session = session;
        }

        boolean released() {
            return sessionCount == 0 && transactionCount == 0;
        }
    }

    private final Map<String, Holder> held = new HashMap<>();

    /**
     * Takes {@code key} for {@code session}, waiting up to {@code timeoutMillis} (negative: without
     * limit) while another session holds it; returns whether it got it.
     */
    synchronized boolean lock(String key, Object session, boolean transactionLevel, long timeoutMillis)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (true) {
            Holder h = held.get(key);
            if (h == null || h.session == session) {
                if (h == null) {
                    h = new Holder(session);
                    held.put(key, h);
                }
                if (transactionLevel) {
                    h.transactionCount++;
                } else {
                    h.sessionCount++;
                }
                return true;
            }
            long left = deadline - System.currentTimeMillis();
            if (timeoutMillis >= 0 && left <= 0) {
                return false;
            }
            wait(timeoutMillis < 0 ? 0 : left);
        }
    }

    /** Releases one session-level hold; false if the session did not hold it so. */
    synchronized boolean unlock(String key, Object session) {
        Holder h = held.get(key);
        if (h == null || h.session != session || h.sessionCount == 0) {
            return false;
        }
        h.sessionCount--;
        forgetIfReleased(key, h);
        return true;
    }

    /** Whether anyone holds {@code key}. */
    synchronized boolean isHeld(String key) {
        return held.containsKey(key);
    }

    /** The session holding {@code key}, or null. */
    synchronized Object holder(String key) {
        Holder h = held.get(key);
        return h == null ? null : h.session;
    }

    /** Which of a session's holds to release. */
    enum Holds { TRANSACTION, SESSION, ALL }

    /** Releases the session's holds of that kind; returns how many session-level holds went. */
    synchronized int release(Object session, Holds which) {
        int sessionHolds = 0;
        for (Iterator<Map.Entry<String, Holder>> it = held.entrySet().iterator(); it.hasNext(); ) {
            Holder h = it.next().getValue();
            if (h.session != session) {
                continue;
            }
            if (which != Holds.TRANSACTION) {
                sessionHolds += h.sessionCount;
                h.sessionCount = 0;
            }
            if (which != Holds.SESSION) {
                h.transactionCount = 0;
            }
            if (h.released()) {
                it.remove();
            }
        }
        notifyAll();
        return sessionHolds;
    }

    private void forgetIfReleased(String key, Holder h) {
        if (h.released()) {
            held.remove(key);
            notifyAll();
        }
    }
}
