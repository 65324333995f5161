package org.phalanx.controller.net;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The open client connections by the driver's id for them ({@link org.phalanx.protocol.Protocol#CLIENT_SESSION}).
 * A driver asking about a request of a connection it lost ends that connection first if it is
 * still open here (the driver gave up on it, the controller has not noticed yet): once its last
 * request has ended, what it logged is settled.
 */
final class ClientSessions {
    private final Map<String, Open> open = new ConcurrentHashMap<>();

    /** One open connection: whose it is (virtual database/user), how to end it, and when it has. */
    record Open(String user, Runnable close, CompletableFuture<Void> ended) {
    }

    /** Registers a connection; false if another holds that id (the newcomer then gets no request ids). */
    boolean opened(String clientSession, Open connection) {
        return open.putIfAbsent(clientSession, connection) == null;
    }

    void ended(String clientSession, Open connection) {
        if (open.remove(clientSession, connection)) {
            connection.ended().complete(null);
        }
    }

    /**
     * Ends the connection with that id if it is open here and waits until it has; false if it did not
     * in time, or if it is another user's (nobody ends another's connection by knowing its id).
     */
    boolean endAndWait(String clientSession, String user, Duration timeout) {
        Open connection = open.get(clientSession);
        if (connection == null) {
            return true;
        }
        if (!connection.user().equals(user)) {
            return false;
        }
        connection.close().run();
        try {
            connection.ended().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
