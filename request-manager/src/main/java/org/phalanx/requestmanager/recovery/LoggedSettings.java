package org.phalanx.requestmanager.recovery;

import org.phalanx.requestmanager.backend.SessionSettings;

/**
 * A logged write keeps the session settings it ran under ({@code SET search_path},
 * {@code SET time_zone}, ...), so that replay on a backend catching up runs it as the session
 * did: an unqualified table is the one its search path named, a timestamp is read in its time
 * zone. They travel in the entry's SQL as a leading comment, {@code /* phalanx:settings <encoded>
 * *}{@code /}, which needs no new log format (logs written before read as having none) and is
 * still a harmless comment to any backend that sees the text as it is.
 */
public final class LoggedSettings {
    private static final String PREFIX = "/* phalanx:settings ";
    private static final String SUFFIX = " */ ";

    /** A logged statement: the settings it ran under and the statement itself. */
    public record Logged(SessionSettings settings, String sql) {
    }

    private LoggedSettings() {
    }

    /** The text to log for {@code sql} run under {@code settings}. */
    public static String toLog(SessionSettings settings, String sql) {
        return settings.isEmpty() ? sql : PREFIX + settings.encode() + SUFFIX + sql;
    }

    /** The settings and statement of a logged text ({@link SessionSettings#NONE} when it carries none). */
    public static Logged fromLog(String logged) {
        if (logged == null || !logged.startsWith(PREFIX)) {
            return new Logged(SessionSettings.NONE, logged);
        }
        int end = logged.indexOf(SUFFIX, PREFIX.length());
        if (end < 0) {
            return new Logged(SessionSettings.NONE, logged);
        }
        return new Logged(SessionSettings.decode(logged.substring(PREFIX.length(), end)),
                logged.substring(end + SUFFIX.length()));
    }
}
