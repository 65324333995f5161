package org.phalanx.driver;

import java.sql.Time;
import java.sql.Timestamp;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.TemporalAccessor;
import java.util.regex.Pattern;

/**
 * Date/time text in the forms databases print (ISO dates, "yyyy-MM-dd HH:mm:ss.fff" with an
 * optional offset such as "+02", "+0200", "+02:00" or "Z") and the java.sql classes built in a
 * chosen zone, so {@code getTimestamp(i, calendar)} and friends share one implementation.
 */
final class DateTimes {
    private static final Pattern DATE_ONLY = Pattern.compile("[+-]?\\d{4,}-\\d{2}-\\d{2}");
    private static final Pattern SHORT_OFFSET = Pattern.compile("([+-]\\d{2})(\\d{2})?$");

    private static final DateTimeFormatter DATE_TIME = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .appendLiteral('T')
            .append(DateTimeFormatter.ISO_LOCAL_TIME)
            .optionalStart().appendOffsetId().optionalEnd()
            .toFormatter();

    private DateTimes() {
    }

    /**
     * Parses date/time text into LocalDate, LocalTime, LocalDateTime or OffsetDateTime; null if
     * the text is none of those.
     */
    static Object parse(String text) {
        String s = text.trim();
        try {
            if (DATE_ONLY.matcher(s).matches()) {
                return LocalDate.parse(s);
            }
            if (s.length() >= 3 && s.charAt(2) == ':') {
                return LocalTime.parse(s);
            }
            if (s.length() > 10 && (s.charAt(10) == ' ' || s.charAt(10) == 't')) {
                s = s.substring(0, 10) + 'T' + s.substring(11);
            }
            s = normalizeOffset(s);
            TemporalAccessor t = DATE_TIME.parseBest(s, OffsetDateTime::from, LocalDateTime::from);
            return t;
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** "+02" and "+0200" become "+02:00", the one form ISO parsing accepts. */
    private static String normalizeOffset(String s) {
        int t = s.indexOf('T');
        if (t < 0) {
            return s;
        }
        String time = s.substring(t);
        var m = SHORT_OFFSET.matcher(time);
        if (!m.find() || m.start() < 3) {
            return s;
        }
        String offset = m.group(1) + ":" + (m.group(2) == null ? "00" : m.group(2));
        return s.substring(0, t) + time.substring(0, m.start()) + offset;
    }

    /** "HH:mm:ss" plus the fraction when there is one, as SQL prints times. */
    static String format(LocalTime t) {
        StringBuilder b = new StringBuilder(18);
        two(b, t.getHour()).append(':');
        two(b, t.getMinute()).append(':');
        two(b, t.getSecond());
        int nanos = t.getNano();
        if (nanos != 0) {
            String f = String.format("%09d", nanos);
            int end = f.length();
            while (f.charAt(end - 1) == '0') {
                end--;
            }
            b.append('.').append(f, 0, end);
        }
        return b.toString();
    }

    static String format(LocalDateTime t) {
        return t.toLocalDate() + " " + format(t.toLocalTime());
    }

    /**
     * An instant as PostgreSQL writes a {@code timestamptz} (what pgjdbc's getString gives): in the
     * session's zone, this JVM's (pgjdbc starts its sessions in it), with the offset in hours
     * ({@code +01}, {@code +05:30}).
     */
    static String format(OffsetDateTime t) {
        OffsetDateTime here = t.atZoneSameInstant(ZoneId.systemDefault()).toOffsetDateTime();
        int seconds = here.getOffset().getTotalSeconds();
        int minutes = Math.abs(seconds) / 60;
        StringBuilder offset = new StringBuilder(seconds < 0 ? "-" : "+");
        two(offset, minutes / 60);
        if (minutes % 60 != 0) {
            two(offset.append(':'), minutes % 60);
        }
        return format(here.toLocalDateTime()) + offset;
    }

    private static StringBuilder two(StringBuilder b, int v) {
        return b.append((char) ('0' + v / 10)).append((char) ('0' + v % 10));
    }

    static java.sql.Date sqlDate(LocalDate d, ZoneId zone) {
        if (zone.equals(ZoneId.systemDefault())) {
            return java.sql.Date.valueOf(d); // exact inverse of Date.toLocalDate()
        }
        return new java.sql.Date(d.atStartOfDay(zone).toInstant().toEpochMilli());
    }

    /** Keeps milliseconds, which {@code Time.valueOf(LocalTime)} drops. */
    static Time sqlTime(LocalTime t, ZoneId zone) {
        return new Time(LocalDate.EPOCH.atTime(t).atZone(zone).toInstant().toEpochMilli());
    }

    static Timestamp sqlTimestamp(LocalDateTime t, ZoneId zone) {
        if (zone.equals(ZoneId.systemDefault())) {
            return Timestamp.valueOf(t); // exact inverse of Timestamp.toLocalDateTime()
        }
        return Timestamp.from(t.atZone(zone).toInstant());
    }

    /** The wall-clock time of a java.sql.Time in a zone, milliseconds included. */
    static LocalTime localTime(java.util.Date time, ZoneId zone) {
        return Instant.ofEpochMilli(time.getTime()).atZone(zone).toLocalTime();
    }
}
