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
        return rewrite(sql, null, null, null) != null;
    }

    /** The statement with its macros replaced by values chosen now, once for every backend. */
    public String rewrite(String sql) {
        return rewrite(sql, Instant.now(), () -> ThreadLocalRandom.current().nextDouble());
    }

    public String rewrite(String sql, Instant now, DoubleSupplier random) {
        String rewritten = rewrite(sql, LocalDateTime.ofInstant(now, zone), random, new StringBuilder(sql.length() + 32));
        return rewritten == null ? sql : rewritten;
    }

    /**
     * With out == null only detects (returns non-null at the first macro). Returns null when
     * the text holds no macro.
     */
    private static String rewrite(String sql, LocalDateTime now, DoubleSupplier random, StringBuilder out) {
        boolean found = false;
        int copied = 0;
        int i = 0;
        while (i < sql.length()) {
            int skipped = SqlLexer.skipNonCode(sql, i);
            if (skipped != i) {
                i = skipped;
                continue;
            }
            char c = sql.charAt(i);
            if (!SqlLexer.isWordStart(c)) {
                i++;
                continue;
            }
            int j = SqlLexer.wordEnd(sql, i);
            String word = sql.substring(i, j).toLowerCase(Locale.ROOT);
            boolean qualified = i > 0 && sql.charAt(i - 1) == '.';
            if (!qualified && MACROS.contains(word)) {
                int end = SqlLexer.emptyParensEnd(sql, j);
                if (end > 0 || !NEED_PARENS.contains(word)) {
                    if (out == null) {
                        return "";
                    }
                    found = true;
                    out.append(sql, copied, i).append(literal(word, now, random));
                    i = Math.max(end, j);
                    copied = i;
                    continue;
                }
            }
            i = j;
        }
        if (!found) {
            return null;
        }
        return out.append(sql, copied, sql.length()).toString();
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
