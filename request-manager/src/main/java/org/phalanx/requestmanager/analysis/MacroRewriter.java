package org.phalanx.requestmanager.analysis;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.phalanx.engine.Engine;

/**
 * Replaces non-deterministic macros in a write with literals chosen once, so every backend
 * stores the same values: NOW(), CURRENT_TIMESTAMP, LOCALTIMESTAMP, CURRENT_DATE, CURRENT_TIME,
 * PostgreSQL's CLOCK_TIMESTAMP(), STATEMENT_TIMESTAMP() and TRANSACTION_TIMESTAMP(), MariaDB's
 * SYSDATE(), CURDATE() and CURTIME() become quoted date/time literals in the configured zone,
 * MariaDB's UTC_TIMESTAMP(), UTC_DATE() and UTC_TIME() the same in UTC, UNIX_TIMESTAMP() the
 * seconds since 1970, RAND() and RANDOM() a double in [0, 1) (PostgreSQL's meaning of RANDOM()).
 * All macros of one statement share one instant.
 * Words inside string literals, quoted identifiers and comments, and qualified names
 * ({@code t.now}), are left alone.
 */
public final class MacroRewriter {
    /** Macros also without parentheses (SQL's special values). */
    private static final Set<String> BARE = Set.of("current_timestamp", "localtimestamp", "current_date", "current_time",
            "localtime");
    /** Those that take a precision, {@code NOW(6)}: the literal then has that many fractional digits. */
    private static final Set<String> FRACTIONAL = Set.of("now", "current_timestamp", "localtimestamp", "current_time",
            "localtime", "sysdate", "curtime", "utc_timestamp", "utc_time");
    /**
     * SQLite's clock: {@code 'now'} given to one of its date functions ({@code julianday('now')},
     * {@code strftime('%s', 'now')}, {@code datetime('now', 'subsec')}), always in UTC.
     */
    private static final Pattern SQLITE_NOW = Pattern.compile(
            "(?i)\\b((?:date|time|datetime|julianday|strftime|unixepoch|timediff)\\s*\\(\\s*(?:'(?:[^']|'')*'\\s*,\\s*)?)'now'");
    /**
     * Macros only when called without argument: a column may be named {@code now} or {@code utc_date}
     * (MariaDB's bare {@code UTC_DATE} is therefore not followed); {@code UNIX_TIMESTAMP(d)} converts d.
     */
    private static final Set<String> CALLED = Set.of("now", "rand", "random", "clock_timestamp", "statement_timestamp",
            "transaction_timestamp", "sysdate", "curdate", "curtime", "utc_timestamp", "utc_date", "utc_time",
            "unix_timestamp");

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final DateTimeFormatter OFFSET = DateTimeFormatter.ofPattern("xxx");

    private final ZoneId zone;

    public MacroRewriter(ZoneId zone) {
        this.zone = zone;
    }

    /** This rewriter writing its clock values in {@code other}'s local time (a session's own time zone). */
    public MacroRewriter inZone(ZoneId other) {
        return other.equals(zone) ? this : new MacroRewriter(other);
    }

    /** Whether the text calls a macro (a column default, say). */
    public static boolean hasMacro(String sql) {
        return containsMacro(sql);
    }

    /** Cheap test used once per SQL text by the analyser. */
    static boolean containsMacro(String sql) {
        return replace(sql, null, null, null) != sql || SQLITE_NOW.matcher(sql).find();
    }

    /** The statement with its macros replaced by values chosen now, once for every backend. */
    public String rewrite(String sql) {
        return rewrite(sql, Set.of());
    }

    /**
     * As {@link #rewrite(String)}, for backends speaking {@code dialects}. All PostgreSQL: its
     * untyped literals would not mix with intervals or functions ({@code now() - interval '30 days'},
     * {@code date_trunc('hour', now())}), so the values are typed literals — time stamps with their
     * offset (the same instant whatever the session's time zone) and microseconds, as its own. Any
     * SQLite: its date functions' {@code 'now'} becomes the time chosen (UTC, as SQLite's own).
     */
    public String rewrite(String sql, Set<Engine> dialects) {
        return rewrite(sql, Instant.now(), () -> ThreadLocalRandom.current().nextDouble(), dialects);
    }

    public String rewrite(String sql, Instant now, DoubleSupplier random) {
        return rewrite(sql, now, random, Set.of());
    }

    public String rewrite(String sql, Instant now, DoubleSupplier random, Set<Engine> dialects) {
        Engine only = dialects.size() == 1 ? dialects.iterator().next() : null;
        String out = replace(sql, now.atZone(zone), random, only);
        if (dialects.contains(Engine.SQLITE)) {
            String utc = "'" + TIMESTAMP.format(now.atZone(ZoneOffset.UTC).toLocalDateTime()) + "'";
            out = SQLITE_NOW.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + utc));
        }
        return out;
    }

    /**
     * The text with every macro replaced by its value (by "" when {@code now} is null: only detecting).
     *
     * @param only the engine every backend runs, or null (a mix, or not known)
     */
    private static String replace(String sql, ZonedDateTime now, DoubleSupplier random, Engine only) {
        return SqlLexer.replaceWords(sql, (text, start, end) -> {
            if (end - start == 10 && end + 1 < text.length() && text.charAt(end) == '.'
                    && text.regionMatches(true, start, "pg_catalog", 0, 10)) {
                // pg_catalog.now() is the function itself, qualifier and all (t.now is a column)
                return macroAt(text, end + 1, SqlLexer.wordEnd(text, end + 1), now, random, only);
            }
            boolean qualified = start > 0 && text.charAt(start - 1) == '.';
            return qualified ? null : macroAt(text, start, end, now, random, only);
        });
    }

    /** The value of the macro that is the word between {@code start} and {@code end}, or null if it is none. */
    private static SqlLexer.Replacement macroAt(String text, int start, int end, ZonedDateTime now, DoubleSupplier random,
                                                Engine only) {
        String word = text.substring(start, end).toLowerCase(Locale.ROOT);
        if (!(BARE.contains(word) || CALLED.contains(word))) {
            return null;
        }
        int call = SqlLexer.emptyParensEnd(text, end);
        int digits = -1; // the fractional digits a precision asks for: NOW(6), CURRENT_TIMESTAMP(3)
        if (call < 0 && FRACTIONAL.contains(word)) {
            int[] precision = precisionCall(text, end);
            if (precision != null) {
                call = precision[0];
                digits = precision[1];
            }
        }
        if (call < 0 && CALLED.contains(word)) {
            return null;
        }
        if (digits < 0 && (only == Engine.MARIADB || only == Engine.SQLITE)) {
            digits = 0; // their NOW() and CURRENT_TIMESTAMP are whole seconds
        }
        String value = now == null ? "" : only == Engine.POSTGRESQL ? typedLiteral(word, now, random, digits)
                : only == Engine.SQLITE && word.equals("random") ? Long.toString(sqliteRandom(random)) : null;
        if (value == null) {
            value = literal(word, now, random, digits);
            if (only == Engine.MARIADB && value.startsWith("'")) {
                value = temporalKeyword(word) + value; // TIMESTAMP'...': a number in NOW() + 0, as NOW() is
            }
        }
        return new SqlLexer.Replacement(value, Math.max(call, end));
    }

    /** The keyword of MariaDB's typed literal for a clock macro's value. */
    private static String temporalKeyword(String macro) {
        return switch (macro) {
            case "current_date", "curdate", "utc_date" -> "DATE";
            case "current_time", "curtime", "utc_time" -> "TIME";
            default -> "TIMESTAMP";
        };
    }

    /** {@code (n)} with n in 0..6 at {@code from}: {index after it, n}; else null. */
    private static int[] precisionCall(String sql, int from) {
        int k = SqlLexer.skipSpaces(sql, from);
        if (k >= sql.length() || sql.charAt(k) != '(') {
            return null;
        }
        k = SqlLexer.skipSpaces(sql, k + 1);
        if (k >= sql.length() || sql.charAt(k) < '0' || sql.charAt(k) > '6') {
            return null;
        }
        int digits = sql.charAt(k) - '0';
        k = SqlLexer.skipSpaces(sql, k + 1);
        return k < sql.length() && sql.charAt(k) == ')' ? new int[] {k + 1, digits} : null;
    }

    /** @param digits fractional digits asked for, or -1: the default (milliseconds for a time stamp, none for a time) */
    private static String literal(String macro, ZonedDateTime zoned, DoubleSupplier random, int digits) {
        LocalDateTime now = zoned.toLocalDateTime();
        LocalDateTime utc = zoned.withZoneSameInstant(ZoneOffset.UTC).toLocalDateTime();
        return switch (macro) {
            case "current_date", "curdate" -> "'" + DATE.format(now) + "'";
            case "current_time", "curtime" -> "'" + TIME.format(now) + fraction(now, digits) + "'";
            case "utc_date" -> "'" + DATE.format(utc) + "'";
            case "utc_time" -> "'" + TIME.format(utc) + fraction(utc, digits) + "'";
            case "utc_timestamp" -> "'" + timestamp(utc, digits) + "'";
            case "unix_timestamp" -> Long.toString(zoned.toEpochSecond());
            case "rand", "random" -> Double.toString(random.getAsDouble());
            default -> "'" + timestamp(now, digits) + "'";
        };
    }

    /** PostgreSQL's typed value of one of its own macros (microseconds unless a precision says), or null for another engine's. */
    private static String typedLiteral(String macro, ZonedDateTime zoned, DoubleSupplier random, int digits) {
        LocalDateTime now = zoned.toLocalDateTime();
        int fraction = digits < 0 ? 6 : digits;
        String offset = OFFSET.format(zoned);
        return switch (macro) {
            case "current_date" -> "DATE '" + DATE.format(now) + "'";
            case "current_time" -> "TIME WITH TIME ZONE '" + TIME.format(now) + fraction(now, fraction) + offset + "'";
            case "localtimestamp" -> "TIMESTAMP '" + timestamp(now, fraction) + "'";
            case "localtime" -> "TIME '" + TIME.format(now) + fraction(now, fraction) + "'";
            case "now", "current_timestamp", "clock_timestamp", "statement_timestamp", "transaction_timestamp" ->
                    "TIMESTAMP WITH TIME ZONE '" + timestamp(now, fraction) + offset + "'";
            case "random" -> "CAST(" + random.getAsDouble() + " AS DOUBLE PRECISION)";
            default -> null;
        };
    }

    /** SQLite's random(): a signed 64-bit integer (abs(random()) % n is how its users draw a number). */
    private static long sqliteRandom(DoubleSupplier random) {
        return (long) ((random.getAsDouble() * 2 - 1) * Long.MAX_VALUE);
    }

    private static String timestamp(LocalDateTime t, int digits) {
        return digits < 0 ? TIMESTAMP.format(t) : DATE.format(t) + " " + TIME.format(t) + fraction(t, digits);
    }

    /** {@code .} and the first {@code digits} digits of the second's fraction; "" for none. */
    private static String fraction(LocalDateTime t, int digits) {
        if (digits <= 0) {
            return "";
        }
        return "." + String.format("%09d", t.getNano()).substring(0, digits);
    }
}
