package org.phalanx.requestmanager.api;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A client's id for one request: the driver's random id for its connection ({@code session}) and
 * the request's number on it (both sides count the requests after HELLO). Carried by the log entry
 * the request makes, so that a driver that lost its controller can ask another whether the request
 * was applied, and retry it only if not (exactly-once retries, docs/distribution.md).
 *
 * @param units      what the request logs ({@link Units})
 * @param keyColumns the generated keys the request asked for: null none, empty the driver's choice
 *                   ({@code RETURN_GENERATED_KEYS}), else those columns. In the log so that every
 *                   member that applies the unit (a follower's replay too) can remember the same keys
 *                   the client was given
 */
public record RequestId(String session, long number, Units units, List<String> keyColumns) {

    private static final String KEYS = "keys";

    /** What a request logs, which decides how it is answered. */
    public enum Units {
        /** One unit: an auto-commit statement, or a commit. */
        ONE(null),
        /** A batch run element by element: a unit an element (each its own auto-commit statement), answered one by one. */
        ELEMENTS("several"),
        /**
         * A batch run as one transaction: each element a write of it, then its commit, all carrying the
         * id; applied all together (its commit is logged) or not at all, answered with each element's count.
         */
        TRANSACTION("whole");

        private final String text;

        Units(String text) {
            this.text = text;
        }
    }

    public RequestId {
        if (session == null || session.isEmpty() || session.indexOf(':') >= 0) {
            throw new IllegalArgumentException("a client session id is not empty and has no ':'");
        }
        java.util.Objects.requireNonNull(units, "units");
        keyColumns = keyColumns == null ? null : List.copyOf(keyColumns);
    }

    public RequestId(String session, long number) {
        this(session, number, Units.ONE, null);
    }

    /** The same request, marked as one that logs {@code what}. */
    public RequestId logging(Units what) {
        return new RequestId(session, number, what, keyColumns);
    }

    /** The same request, asking for the keys {@code columns} (null: none; empty: the driver's choice). */
    public RequestId withKeys(List<String> columns) {
        return new RequestId(session, number, units, columns);
    }

    public boolean wantsKeys() {
        return keyColumns != null;
    }

    /**
     * {@code session:number}, then {@code :several} or {@code :whole} ({@link Units}) and {@code :keys} or {@code :keys=a,b} (column
     * names URL-encoded, so they hold no ':' or ','): the form the log keeps.
     */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(session).append(':').append(number);
        if (units.text != null) {
            b.append(':').append(units.text);
        }
        if (keyColumns != null) {
            b.append(':').append(KEYS);
            for (int i = 0; i < keyColumns.size(); i++) {
                b.append(i == 0 ? '=' : ',').append(URLEncoder.encode(keyColumns.get(i), StandardCharsets.UTF_8));
            }
        }
        return b.toString();
    }

    /** The id {@link #toString()} wrote, or null for text that is not one. */
    public static RequestId parse(String text) {
        if (text == null) {
            return null;
        }
        String[] parts = text.split(":", -1);
        if (parts.length < 2 || parts.length > 4 || parts[0].isEmpty()) {
            return null;
        }
        try {
            return parsed(parts);
        } catch (IllegalArgumentException e) { // a bad number, or a bad %-escape in a column name
            return null;
        }
    }

    private static RequestId parsed(String[] parts) {
        Units units = Units.ONE;
        List<String> keys = null;
        for (int i = 2; i < parts.length; i++) {
            Units marked = i == 2 ? marked(parts[i]) : null;
            if (marked != null) {
                units = marked;
            } else if (parts[i].equals(KEYS) && keys == null) {
                keys = List.of();
            } else if (parts[i].startsWith(KEYS + "=") && keys == null) {
                keys = new ArrayList<>();
                for (String name : parts[i].substring(KEYS.length() + 1).split(",", -1)) {
                    keys.add(URLDecoder.decode(name, StandardCharsets.UTF_8));
                }
            } else {
                return null;
            }
        }
        return new RequestId(parts[0], Long.parseLong(parts[1]), units, keys);
    }

    private static Units marked(String text) {
        for (Units u : Units.values()) {
            if (text.equals(u.text)) {
                return u;
            }
        }
        return null;
    }
}
