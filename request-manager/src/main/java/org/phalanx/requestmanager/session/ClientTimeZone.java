package org.phalanx.requestmanager.session;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.TimeZone;
import java.util.regex.Pattern;

/**
 * The {@code SET TIME ZONE} that gives a session its client's time zone on PostgreSQL backends.
 * pgjdbc starts every session with {@code TimeZone} set to its JVM's zone, so on one database a
 * {@code timestamptz} written as a wall-clock time (a {@code Timestamp} parameter, a literal without
 * offset) or cast to a wall-clock one ({@code now()::timestamp}, {@code extract(hour ...)}) is in the
 * client's zone. Through Phalanx the backends' sessions are the controller's pgjdbc's, in the
 * controller's zone: a client in another zone gets its own as a session parameter, as if it had set
 * it (docs/jdbc-unsupported.md says what remains).
 */
final class ClientTimeZone {
    /** What a zone id may hold before it is quoted into SQL: it comes from the client, unauthenticated in spirit. */
    private static final Pattern ZONE_ID = Pattern.compile("[A-Za-z0-9_+\\-/:]{1,64}");

    private ClientTimeZone() {
    }

    /** The statement, or null when none is needed (the controller's own zone) or the id is not a zone. */
    static String setStatement(String zoneId) {
        if (zoneId == null || !ZONE_ID.matcher(zoneId).matches() || zoneId.equals(TimeZone.getDefault().getID())) {
            return null;
        }
        ZoneId zone;
        try {
            zone = ZoneId.of(zoneId).normalized();
        } catch (DateTimeException e) {
            return null;
        }
        if (zone.equals(ZoneId.systemDefault().normalized())) {
            return null;
        }
        return "SET TIME ZONE '" + postgresName(zone) + "'";
    }

    /**
     * A region as its IANA name; a fixed offset in POSIX form, whose sign is the other way round
     * ({@code UTC-05:30} is five and a half hours east of Greenwich), as pgjdbc turns {@code GMT+05:30}.
     */
    private static String postgresName(ZoneId zone) {
        if (!(zone instanceof ZoneOffset offset)) {
            return zone.getId();
        }
        if (offset.getTotalSeconds() == 0) {
            return "UTC";
        }
        String id = offset.getId(); // +05:30
        return "UTC" + (id.charAt(0) == '+' ? '-' : '+') + id.substring(1);
    }
}
