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
 * @param several    the request logged several units (a batch run element by element): it is
 *                   answered unit by unit, each unit being one element
 * @param keyColumns the generated keys the request asked for: null none, empty the driver's choice
 *                   ({@code RETURN_GENERATED_KEYS}), else those columns. In the log so that every
 *                   member that applies the unit (a follower's replay too) can remember the same keys
 *                   the client was given
 */
public record RequestId(String session, long number, boolean several, List<String> keyColumns) {

    private static final String SEVERAL = "several";
    private static final String KEYS = "keys";

    public RequestId {
        if (session == null || session.isEmpty() || session.indexOf(':') >= 0) {
            throw new IllegalArgumentException("a client session id is not empty and has no ':'");
        }
        keyColumns = keyColumns == null ? null : List.copyOf(keyColumns);
    }

    public RequestId(String session, long number, boolean several) {
        this(session, number, several, null);
    }

    /** The same request, marked as one that logs several units. */
    public RequestId asSeveral() {
        return new RequestId(session, number, true, keyColumns);
    }

    /** The same request, asking for the keys {@code columns} (null: none; empty: the driver's choice). */
    public RequestId withKeys(List<String> columns) {
        return new RequestId(session, number, several, columns);
    }

    public boolean wantsKeys() {
        return keyColumns != null;
    }

    /**
     * {@code session:number}, then {@code :several} and {@code :keys} or {@code :keys=a,b} (column
     * names URL-encoded, so they hold no ':' or ','): the form the log keeps.
     */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(session).append(':').append(number);
        if (several) {
            b.append(':').append(SEVERAL);
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
        boolean several = false;
        List<String> keys = null;
        for (int i = 2; i < parts.length; i++) {
            if (parts[i].equals(SEVERAL) && i == 2) {
                several = true;
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
        return new RequestId(parts[0], Long.parseLong(parts[1]), several, keys);
    }
}
