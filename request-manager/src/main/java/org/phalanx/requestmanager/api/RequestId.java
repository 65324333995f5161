package org.phalanx.requestmanager.api;

/**
 * A client's id for one request: the driver's random id for its connection ({@code session}) and
 * the request's number on it (both sides count the requests after HELLO). Carried by the log entry
 * the request makes, so that a driver that lost its controller can ask another whether the request
 * was applied, and retry it only if not (exactly-once retries, docs/distribution.md).
 *
 * @param several the request logged several units (a batch run element by element): its outcome
 *                may be partial, and nobody can answer for it as a whole
 */
public record RequestId(String session, long number, boolean several) {

    public RequestId {
        if (session == null || session.isEmpty() || session.indexOf(':') >= 0) {
            throw new IllegalArgumentException("a client session id is not empty and has no ':'");
        }
    }

    /** The same request, marked as one that logs several units. */
    public RequestId asSeveral() {
        return new RequestId(session, number, true);
    }

    /** {@code session:number}, or {@code session:number:several}: the form the log keeps. */
    @Override
    public String toString() {
        return session + ":" + number + (several ? ":several" : "");
    }

    /** The id {@link #toString()} wrote, or null for text that is not one. */
    public static RequestId parse(String text) {
        if (text == null) {
            return null;
        }
        String[] parts = text.split(":");
        if (parts.length < 2 || parts.length > 3 || parts[0].isEmpty()) {
            return null;
        }
        try {
            return new RequestId(parts[0], Long.parseLong(parts[1]), parts.length == 3 && parts[2].equals("several"));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
