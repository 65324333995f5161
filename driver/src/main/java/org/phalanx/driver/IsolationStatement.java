package org.phalanx.driver;

import java.sql.Connection;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises {@code SET [SESSION [CHARACTERISTICS AS]] TRANSACTION ISOLATION LEVEL ...}, which
 * the controller takes as {@code setTransactionIsolation}: once it succeeded, the connection's
 * {@code getTransactionIsolation()} must say so. (The controller has its own copy of this rule,
 * {@code org.phalanx.engine.Isolation}: the driver depends on nothing but the JDK.)
 */
final class IsolationStatement {
    private static final Pattern SET = Pattern.compile("(?is)\\s*SET\\s+(?:SESSION\\s+CHARACTERISTICS\\s+AS\\s+|SESSION\\s+)?"
            + "TRANSACTION\\s+ISOLATION\\s+LEVEL\\s+(READ\\s+UNCOMMITTED|READ\\s+COMMITTED|REPEATABLE\\s+READ|SERIALIZABLE)\\s*;?\\s*");

    private IsolationStatement() {
    }

    /** The level the statement sets, or -1 if it is not such a statement. */
    static int levelSet(String sql) {
        if (!sql.stripLeading().regionMatches(true, 0, "SET", 0, 3)) {
            return -1;
        }
        Matcher m = SET.matcher(sql);
        if (!m.matches()) {
            return -1;
        }
        return switch (m.group(1).toUpperCase(Locale.ROOT).replaceAll("\\s+", " ")) {
            case "READ UNCOMMITTED" -> Connection.TRANSACTION_READ_UNCOMMITTED;
            case "READ COMMITTED" -> Connection.TRANSACTION_READ_COMMITTED;
            case "REPEATABLE READ" -> Connection.TRANSACTION_REPEATABLE_READ;
            default -> Connection.TRANSACTION_SERIALIZABLE;
        };
    }
}
