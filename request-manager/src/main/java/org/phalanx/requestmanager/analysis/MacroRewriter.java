package org.phalanx.requestmanager.analysis;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Replaces non-deterministic macros in a write with literals chosen once, so every backend
 * stores the same values: NOW(), CURRENT_TIMESTAMP, LOCALTIMESTAMP, CURRENT_DATE, CURRENT_TIME
 * become quoted date/time literals in the configured zone, RAND() and RANDOM() a double in
 * [0, 1) (PostgreSQL's meaning of RANDOM()). All macros of one statement share one instant.
 * Words inside string literals, quoted identifiers and comments, and qualified names
 * ({@code t.now}), are left alone.
 */
public final class MacroRewriter {
    private static final Set<String> MACROS =
            Set.of("now", "current_timestamp", "localtimestamp", "current_date", "current_time", "rand", "random");
    /** These are macros only when called: a column may be named {@code now}. */
    private static final Set<String> NEED_PARENS = Set.of("now", "rand", "random");

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final ZoneId zone;

    public MacroRewriter(ZoneId zone) {
        this.zone = zone;
    }

    /** Whether the text calls a macro (a column default, say). */
    public static boolean hasMacro(String sql) {
        return containsMacro(sql);
    }

    /** Cheap test used once per SQL text by the analyser. */
    static boolean containsMacro(String sql) {
        return replace(sql, null, null) != sql;
    }

    /** The statement with its macros replaced by values chosen now, once for every backend. */
    public String rewrite(String sql) {
        return rewrite(sql, Instant.now(), () -> ThreadLocalRandom.current().nextDouble());
    }

    public String rewrite(String sql, Instant now, DoubleSupplier random) {
        return replace(sql, LocalDateTime.ofInstant(now, zone), random);
    }

    /** The text with every macro replaced by its value (by "" when {@code now} is null: only detecting). */
    private static String replace(String sql, LocalDateTime now, DoubleSupplier random) {
        return SqlLexer.replaceWords(sql, (text, start, end) -> {
            String word = text.substring(start, end).toLowerCase(Locale.ROOT);
            boolean qualified = start > 0 && text.charAt(start - 1) == '.';
            if (qualified || !MACROS.contains(word)) {
                return null;
            }
            int call = SqlLexer.emptyParensEnd(text, end);
            if (call < 0 && NEED_PARENS.contains(word)) {
                return null;
            }
            return new SqlLexer.Replacement(now == null ? "" : literal(word, now, random), Math.max(call, end));
        });
    }

    private static String literal(String macro, LocalDateTime now, DoubleSupplier random) {
        switch (macro) {
            case "current_date":
                return "'" + DATE.format(now) + "'";
            case "current_time":
                return "'" + TIME.format(now) + "'";
            case "rand":
            case "random":
                return Double.toString(random.getAsDouble());
            default:
                return "'" + TIMESTAMP.format(now) + "'";
        }
    }
}
