package org.phalanx.requestmanager.write;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.analysis.MacroRewriter;
import org.phalanx.requestmanager.backend.SessionSettings;

/**
 * The time zone a session set for itself ({@code SET TIME ZONE 'Europe/Paris'} on PostgreSQL,
 * {@code SET time_zone = '+09:00'} on MariaDB), in which the clock values the controller chooses
 * for its writes are written: {@code CURRENT_DATE}, {@code LOCALTIMESTAMP}, MariaDB's {@code NOW()}
 * — as one database computes them in the session's zone. Only what reads unambiguously: a region
 * ({@code Area/City}) or {@code UTC} on PostgreSQL (whose bare {@code '+09'} is a POSIX zone, west of
 * Greenwich), a region or an ISO offset on MariaDB; anything else keeps the virtual database's
 * {@code macroTimeZone}.
 */
final class SessionTimeZone {
    /** The value of {@code SET TIME ZONE x}, {@code SET timezone = x}, {@code SET time_zone = x}. */
    private static final Pattern VALUE = Pattern.compile("(?is).*?(?:=|\\bto\\b|\\bzone\\b)\\s*'?\\s*([^';\\s]+)\\s*'?[\\s;]*");
    private static final Pattern OFFSET = Pattern.compile("[+-]\\d{1,2}:\\d{2}");

    private SessionTimeZone() {
    }

    /** {@code macros} in the session's own time zone, if it set one this rewriter can follow. */
    static MacroRewriter of(MacroRewriter macros, SessionSettings settings, Set<Engine> dialects) {
        if (settings.isEmpty() || dialects.size() != 1) {
            return macros;
        }
        Engine engine = dialects.iterator().next();
        String set = settings.statement(engine == Engine.POSTGRESQL ? "timezone" : "time_zone");
        if (set == null || engine != Engine.POSTGRESQL && engine != Engine.MARIADB) {
            return macros;
        }
        Matcher m = VALUE.matcher(set);
        if (!m.matches()) {
            return macros;
        }
        String value = m.group(1);
        try {
            if (value.contains("/") || value.equalsIgnoreCase("UTC")) {
                return macros.inZone(ZoneId.of(value));
            }
            if (engine == Engine.MARIADB && OFFSET.matcher(value).matches()) {
                return macros.inZone(ZoneOffset.of(value.length() == 5 ? value.charAt(0) + "0" + value.substring(1) : value));
            }
        } catch (DateTimeException e) {
            // a name Java does not know: the virtual database's zone
        }
        return macros;
    }
}
