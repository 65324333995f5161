package org.phalanx.recoverylog;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One write, commit or rollback in the total order.
 *
 * @param position      place in the total order; strictly increasing along the log, at least 1
 * @param transactionId the transaction a {@link Kind#WRITE}, {@link Kind#COMMIT} or
 *                      {@link Kind#ROLLBACK} belongs to (any value for {@link Kind#STATEMENT})
 * @param login         the virtual login that sent it (may be null)
 * @param kind          what the entry is
 * @param sql           the statement as it was sent to the backends (null allowed for commit and
 *                      rollback)
 * @param params        bound parameter values, in order; each one of the types
 *                      {@link ValueEncoding} knows (null elements allowed)
 * @param backends      names of the backends the entry was sent to, so that replay under partial
 *                      replication applies only what a backend holds
 * @param requestId     the client's id of the request that logged it, or null: a driver that lost
 *                      its controller asks another whether that request was applied (exactly-once
 *                      retries, docs/distribution.md). Not part of the entry's identity
 *                      ({@link #equals}): a log that does not keep it (the JDBC log) reads the entry back equal
 */
public record LogEntry(long position, long transactionId, String login, Kind kind, String sql,
                       List<Object> params, Set<String> backends, String requestId) {

    /** What an entry records. */
    public enum Kind {
        /** An auto-commit write: applied on its own. */
        STATEMENT,
        /** A write inside transaction {@code transactionId}; applied only if it commits. */
        WRITE,
        /** The commit of transaction {@code transactionId}. */
        COMMIT,
        /** The rollback of transaction {@code transactionId}: its writes are never replayed. */
        ROLLBACK,
        /**
         * The write at position {@code transactionId} failed on every backend (the client got the
         * error): replay may see it fail too.
         */
        FAILED
    }

    public LogEntry(long position, long transactionId, String login, Kind kind, String sql, List<Object> params,
                    Set<String> backends) {
        this(position, transactionId, login, kind, sql, params, backends, null);
    }

    public LogEntry {
        if (position < 1) {
            throw new IllegalArgumentException("log positions start at 1, got " + position);
        }
        Objects.requireNonNull(kind, "kind");
        if (sql == null && (kind == Kind.STATEMENT || kind == Kind.WRITE)) {
            throw new IllegalArgumentException(kind + " entry at position " + position + " needs its SQL");
        }
        List<Object> copy = params == null ? List.of() : new ArrayList<>(params);
        for (int i = 0; i < copy.size(); i++) {
            Object value = copy.get(i);
            ValueEncoding.checkSupported(value, i + 1);
            if (value instanceof byte[] bytes) {
                copy.set(i, bytes.clone()); // the caller may reuse its array
            }
        }
        params = Collections.unmodifiableList(copy);
        backends = backends == null ? Set.of() : Collections.unmodifiableSet(new LinkedHashSet<>(backends));
        for (String backend : backends) {
            Objects.requireNonNull(backend, "backend name");
        }
    }

    /** An auto-commit write. */
    public static LogEntry statement(long position, String login, String sql, List<Object> params, Set<String> backends) {
        return new LogEntry(position, 0, login, Kind.STATEMENT, sql, params, backends);
    }

    /** A write inside a transaction. */
    public static LogEntry write(long position, long transactionId, String login, String sql, List<Object> params,
                                 Set<String> backends) {
        return new LogEntry(position, transactionId, login, Kind.WRITE, sql, params, backends);
    }

    public static LogEntry commit(long position, long transactionId, String login, Set<String> backends) {
        return new LogEntry(position, transactionId, login, Kind.COMMIT, null, List.of(), backends);
    }

    public static LogEntry rollback(long position, long transactionId, String login, Set<String> backends) {
        return new LogEntry(position, transactionId, login, Kind.ROLLBACK, null, List.of(), backends);
    }

    /** This entry, logged by the client's request {@code id} (null: none known). */
    public LogEntry withRequestId(String id) {
        return new LogEntry(position, transactionId, login, kind, sql, params, backends, id);
    }

    /** This entry, as sent to {@code names} (the backends of another controller that applies it). */
    public LogEntry withBackends(Set<String> names) {
        return new LogEntry(position, transactionId, login, kind, sql, params, names, requestId);
    }

    /** Marks the write logged at {@code failedPosition} as failed everywhere. */
    public static LogEntry failed(long position, long failedPosition, String login) {
        return new LogEntry(position, failedPosition, login, Kind.FAILED, null, List.of(), Set.of());
    }

    // Records compare arrays by identity; a byte[] parameter must compare by content.
    @Override
    public boolean equals(Object o) {
        return o instanceof LogEntry e
                && position == e.position && transactionId == e.transactionId && kind == e.kind
                && Objects.equals(login, e.login) && Objects.equals(sql, e.sql)
                && Arrays.deepEquals(params.toArray(), e.params.toArray()) && backends.equals(e.backends);
    }

    @Override
    public int hashCode() {
        return Objects.hash(position, transactionId, login, kind, sql, Arrays.deepHashCode(params.toArray()), backends);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("LogEntry[").append(position).append(' ').append(kind);
        if (kind != Kind.STATEMENT) {
            b.append(" tx=").append(transactionId);
        }
        b.append(" login=").append(login);
        if (sql != null) {
            b.append(" sql=").append(sql);
        }
        if (!params.isEmpty()) {
            b.append(" params=").append(Arrays.deepToString(params.toArray()));
        }
        b.append(" backends=").append(backends);
        if (requestId != null) {
            b.append(" request=").append(requestId);
        }
        return b.append(']').toString();
    }
}
