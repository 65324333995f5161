package org.phalanx.controller.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as written in configuration files: a whole number and a unit, e.g. 500ms, 30s, 2m, 1h. */
public final class Durations {
    private static final Pattern FORM = Pattern.compile("(\\d+)(ms|s|m|h)");

    private Durations() {
    }

    /** @throws IllegalArgumentException with a sentence fit for the user */
    public static Duration parse(String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (write e.g. 500ms, 30s, 2m or 1h)");
        }
        try {
            long amount = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                default -> Duration.ofHours(amount);
            };
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("duration '" + text + "' is too long");
        }
    }
}
