package org.phalanx.requestmanager.write;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.phalanx.requestmanager.backend.SessionSettings;

/**
 * How long a session's statements wait for a lock, as the session set it: PostgreSQL's
 * {@code lock_timeout} (milliseconds, or a value with its unit), MariaDB's
 * {@code innodb_lock_wait_timeout} (seconds). The controller's lock manager is where its writes
 * wait, so it honours the setting there (it waited up to the virtual database's lockTimeout, and a
 * client asking to give up after a second got its lock once the holder committed).
 */
final class SessionLockTimeout {
    private static final Pattern VALUE = Pattern.compile(
            "(?is).*?(?:=|\\bto\\b)\\s*'?\\s*(\\d+(?:\\.\\d+)?)\\s*(ms|s|min|h|d)?\\s*'?[\\s;]*");

    private SessionLockTimeout() {
    }

    /** The session's lock wait in milliseconds; 0: not set, or set to wait for ever (PostgreSQL's 0). */
    static long millis(SessionSettings settings) {
        String postgres = settings.statement("lock_timeout");
        if (postgres != null) {
            return parse(postgres, "ms");
        }
        String mariaDb = settings.statement("innodb_lock_wait_timeout");
        return mariaDb == null ? 0 : parse(mariaDb, "s");
    }

    private static long parse(String statement, String defaultUnit) {
        Matcher m = VALUE.matcher(statement);
        if (!m.matches()) {
            return 0; // DEFAULT, a variable: the lock manager's own timeout
        }
        double value = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? defaultUnit : m.group(2).toLowerCase(Locale.ROOT);
        double factor = switch (unit) {
            case "ms" -> 1;
            case "s" -> 1_000;
            case "min" -> 60_000;
            case "h" -> 3_600_000;
            default -> 86_400_000;
        };
        return Math.round(value * factor);
    }
}
