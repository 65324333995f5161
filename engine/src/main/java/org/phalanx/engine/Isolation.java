package org.phalanx.engine;

import java.sql.Connection;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Transaction isolation levels, as JDBC numbers them ({@code Connection.TRANSACTION_*}). */
public final class Isolation {
    /**
     * {@code SET TRANSACTION ISOLATION LEVEL ...} in PostgreSQL's and MariaDB's forms ({@code SET
     * SESSION CHARACTERISTICS AS TRANSACTION ...}, {@code SET SESSION TRANSACTION ...}).
     */
    private static final Pattern SET = Pattern.compile("(?is)\\s*SET\\s+(?:SESSION\\s+CHARACTERISTICS\\s+AS\\s+|SESSION\\s+)?"
            + "TRANSACTION\\s+ISOLATION\\s+LEVEL\\s+(READ\\s+UNCOMMITTED|READ\\s+COMMITTED|REPEATABLE\\s+READ|SERIALIZABLE)\\s*;?\\s*");

    private Isolation() {
    }

    public static boolean isLevel(int level) {
        return level == Connection.TRANSACTION_READ_UNCOMMITTED || level == Connection.TRANSACTION_READ_COMMITTED
                || level == Connection.TRANSACTION_REPEATABLE_READ || level == Connection.TRANSACTION_SERIALIZABLE;
    }

    /** The level's SQL name (READ COMMITTED...). */
    public static String name(int level) {
        return switch (level) {
            case Connection.TRANSACTION_READ_UNCOMMITTED -> "READ UNCOMMITTED";
            case Connection.TRANSACTION_READ_COMMITTED -> "READ COMMITTED";
            case Connection.TRANSACTION_REPEATABLE_READ -> "REPEATABLE READ";
            case Connection.TRANSACTION_SERIALIZABLE -> "SERIALIZABLE";
            default -> "level " + level;
        };
    }

    /** The level a {@code SET ... TRANSACTION ISOLATION LEVEL} statement sets, or empty for any other statement. */
    public static OptionalInt ofSetStatement(String sql) {
        if (!sql.stripLeading().regionMatches(true, 0, "SET", 0, 3)) {
            return OptionalInt.empty();
        }
        Matcher m = SET.matcher(sql);
        if (!m.matches()) {
            return OptionalInt.empty();
        }
        String level = m.group(1).toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
        return OptionalInt.of(switch (level) {
            case "READ UNCOMMITTED" -> Connection.TRANSACTION_READ_UNCOMMITTED;
            case "READ COMMITTED" -> Connection.TRANSACTION_READ_COMMITTED;
            case "REPEATABLE READ" -> Connection.TRANSACTION_REPEATABLE_READ;
            default -> Connection.TRANSACTION_SERIALIZABLE;
        });
    }

    /**
     * Whether a transaction at this level needs its reads locked until it ends: REPEATABLE READ and
     * SERIALIZABLE must not see another transaction's write come between two of their reads.
     */
    public static boolean locksReads(int level) {
        return level >= Connection.TRANSACTION_REPEATABLE_READ;
    }
}
