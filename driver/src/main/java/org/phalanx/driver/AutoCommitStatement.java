package org.phalanx.driver;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MariaDB's {@code SET autocommit = 0 | 1} (also {@code SET SESSION autocommit}, {@code SET
 * @@autocommit}, {@code ON}/{@code OFF}): on a MariaDB virtual database the driver makes it the
 * connection's {@code setAutoCommit}, which it is on one MariaDB — sent to a pooled backend
 * connection instead, it would be lost (a later ROLLBACK undid nothing) and leak to other clients.
 */
final class AutoCommitStatement {
    private static final Pattern SET = Pattern.compile(
            "(?is)\\s*SET\\s+(?:SESSION\\s+|@@SESSION\\.|@@)?autocommit\\s*(?:=|:=|TO)\\s*'?(0|1|ON|OFF|TRUE|FALSE)'?\\s*;?\\s*");

    private AutoCommitStatement() {
    }

    /** The auto-commit mode the statement sets, or null if it is not such a statement. */
    static Boolean valueSet(String sql) {
        if (!sql.stripLeading().regionMatches(true, 0, "SET", 0, 3)) {
            return null;
        }
        Matcher m = SET.matcher(sql);
        if (!m.matches()) {
            return null;
        }
        String v = m.group(1);
        return v.equals("1") || v.equalsIgnoreCase("ON") || v.equalsIgnoreCase("TRUE");
    }
}
