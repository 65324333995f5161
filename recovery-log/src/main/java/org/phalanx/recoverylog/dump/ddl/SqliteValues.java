package org.phalanx.recoverylog.dump.ddl;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;

/**
 * How date, time, boolean and decimal values look in SQLite, which has no such types: dates and
 * times are ISO text ({@code 2024-02-29 13:45:00.123}), as SQLite's own date functions write them;
 * what applications stored otherwise is read leniently — a 'T' separator, a zone suffix (converted
 * to UTC, like SQLite's functions do), an integer (epoch milliseconds, sqlite-jdbc's default for
 * setTimestamp, in the JVM's zone like its getTimestamp) or a real (a Julian day number).
 */
public final class SqliteValues {
    private static final DateTimeFormatter TIME = new DateTimeFormatterBuilder()
            .appendPattern("HH:mm:ss").appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).toFormatter(Locale.ROOT);
    private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE).appendLiteral(' ').append(TIME).toFormatter(Locale.ROOT);
    private static final double UNIX_EPOCH_JULIAN_DAY = 2440587.5;

    private SqliteValues() {
    }

    /** {@code yyyy-MM-dd HH:mm:ss[.fraction]}: the canonical text of a timestamp (no trailing zeros). */
    public static String timestampText(Object value) {
        LocalDateTime t = value instanceof java.sql.Timestamp ts ? ts.toLocalDateTime() : (LocalDateTime) value;
        return t.format(TIMESTAMP);
    }

    public static String dateText(Object value) {
        LocalDate d = value instanceof java.sql.Date sd ? sd.toLocalDate() : (LocalDate) value;
        return d.format(DateTimeFormatter.ISO_LOCAL_DATE);
    }

    public static String timeText(Object value) {
        LocalTime t = value instanceof java.sql.Time st ? st.toLocalTime() : (LocalTime) value;
        return t.format(TIME);
    }

    public static LocalDateTime parseTimestamp(Object raw) {
        if (raw instanceof Number n) {
            return fromNumber(n);
        }
        String s = raw.toString().trim();
        try {
            if (s.length() == 10) {
                return LocalDate.parse(s).atStartOfDay();
            }
            String iso = s.replace(' ', 'T');
            int time = iso.indexOf('T');
            int sign = Math.max(iso.lastIndexOf('+'), iso.lastIndexOf('-'));
            if (iso.endsWith("Z") || (time > 0 && sign > time)) { // a zone suffix (no regex: this runs per value)
                return OffsetDateTime.parse(normalizeOffset(iso)).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
            }
            return LocalDateTime.parse(iso);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + s + "' is not a timestamp SQLite understands", e);
        }
    }

    public static LocalDate parseDate(Object raw) {
        if (raw instanceof Number n) {
            return fromNumber(n).toLocalDate();
        }
        String s = raw.toString().trim();
        return s.length() == 10 ? parseLocalDate(s) : parseTimestamp(s).toLocalDate();
    }

    public static LocalTime parseTime(Object raw) {
        if (raw instanceof Number n) {
            return fromNumber(n).toLocalTime();
        }
        String s = raw.toString().trim();
        try {
            return s.length() <= 18 && s.indexOf('-') < 0 ? LocalTime.parse(s) : parseTimestamp(s).toLocalTime();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + s + "' is not a time SQLite understands", e);
        }
    }

    public static boolean parseBoolean(Object raw) {
        if (raw instanceof Number n) {
            return n.doubleValue() != 0;
        }
        return switch (raw.toString().trim().toLowerCase(Locale.ROOT)) {
            case "1", "true", "t", "yes", "y", "on" -> true;
            case "0", "false", "f", "no", "n", "off" -> false;
            default -> throw new IllegalArgumentException("'" + raw + "' is not a boolean");
        };
    }

    /** SQLite hands a DECIMAL back as an integer, a double or text; a double gets its shortest exact form. */
    public static BigDecimal parseDecimal(Object raw) {
        if (raw instanceof Double d) {
            return new BigDecimal(Double.toString(d));
        }
        if (raw instanceof Float f) {
            return new BigDecimal(Float.toString(f));
        }
        if (raw instanceof BigDecimal d) {
            return d;
        }
        try {
            return new BigDecimal(raw.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + raw + "' is not a number", e);
        }
    }

    private static LocalDate parseLocalDate(String s) {
        try {
            return LocalDate.parse(s);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + s + "' is not a date SQLite understands", e);
        }
    }

    private static LocalDateTime fromNumber(Number n) {
        if (n instanceof Double || n instanceof Float) { // a Julian day number, UTC
            double millis = (n.doubleValue() - UNIX_EPOCH_JULIAN_DAY) * 86_400_000d;
            return LocalDateTime.ofInstant(Instant.ofEpochMilli(Math.round(millis)), ZoneOffset.UTC);
        }
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(n.longValue()), ZoneId.systemDefault());
    }

    private static String normalizeOffset(String iso) {
        // "+0530" -> "+05:30", which OffsetDateTime.parse requires
        return iso.matches(".*[+-]\\d{4}$") ? iso.substring(0, iso.length() - 2) + ":" + iso.substring(iso.length() - 2)
                : iso;
    }
}
