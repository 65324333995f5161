package org.phalanx.requestmanager.hetero;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A bulk UPDATE or DELETE whose condition follows an association, as Hibernate writes it — with
 * PostgreSQL's row addresses ({@code update t set ... from t a join u b on ... where ... and
 * t.ctid=a.ctid}) or MariaDB's multi-table forms ({@code update t a join u b on ... set ... where
 * ...}, {@code delete a from t a join u b on ... where ...}) — written as one portable form that
 * jOOQ can carry to every engine: the joined tables move into a correlated subquery,
 * {@code update t as a set ... where exists (select 1 from u b where <join condition> and (...))}.
 * Only inner joins are rewritten; anything else is left as it is (and refused where it cannot run).
 */
final class JoinedWrites {
    private static final String NAME = "([`\"]?\\w+[`\"]?)";
    private static final Pattern POSTGRES_UPDATE = Pattern.compile("(?is)\\s*update\\s+" + NAME + "\\s+set\\s+(.+?)\\s+from\\s+"
            + NAME + "\\s+(?:as\\s+)?(\\w+)\\s+(join\\s.+?)\\s+where\\s+(.+?)\\s+and\\s+\\1\\.ctid\\s*=\\s*\\4\\.ctid\\s*;?\\s*");
    private static final Pattern MARIADB_UPDATE = Pattern.compile("(?is)\\s*update\\s+" + NAME + "\\s+(?:as\\s+)?(\\w+)\\s+"
            + "(join\\s.+?)\\s+set\\s+(.+?)\\s+where\\s+(.+?)\\s*;?\\s*");
    private static final Pattern MARIADB_DELETE = Pattern.compile("(?is)\\s*delete\\s+(\\w+)\\s+from\\s+" + NAME
            + "\\s+(?:as\\s+)?(\\w+)\\s+(join\\s.+?)\\s+where\\s+(.+?)\\s*;?\\s*");
    private static final Pattern JOIN = Pattern.compile("(?is)\\s*join\\s+(" + "[`\"]?\\w+[`\"]?(?:\\s+(?:as\\s+)?\\w+)?)"
            + "\\s+on\\s+(.+)");
    private static final Pattern JOIN_WORD = Pattern.compile("(?i)\\s(?=join\\s)");

    private JoinedWrites() {
    }

    /** The portable form of a PostgreSQL statement of that kind, or null if it is none. */
    static String fromPostgresql(String sql) {
        Matcher m = POSTGRES_UPDATE.matcher(sql);
        if (!m.matches() || !m.group(1).equalsIgnoreCase(m.group(3))) {
            return null;
        }
        return update(m.group(1), m.group(4), m.group(2), m.group(5), m.group(6));
    }

    /** The portable form of a MariaDB statement of that kind, or null if it is none. */
    static String fromMariadb(String sql) {
        Matcher m = MARIADB_UPDATE.matcher(sql);
        if (m.matches()) {
            return update(m.group(1), m.group(2), m.group(4), m.group(3), m.group(5));
        }
        m = MARIADB_DELETE.matcher(sql);
        if (m.matches() && m.group(1).equalsIgnoreCase(m.group(3))) {
            String exists = exists(m.group(4), m.group(5));
            return exists == null ? null : "delete from " + m.group(2) + " as " + m.group(3) + " where " + exists;
        }
        return null;
    }

    private static String update(String table, String alias, String sets, String joins, String where) {
        String exists = exists(joins, where);
        return exists == null ? null : "update " + table + " as " + alias + " set " + sets + " where " + exists;
    }

    /** {@code exists (select 1 from <joined tables> where <their conditions> and (<where>))}, or null for other joins. */
    private static String exists(String joins, String where) {
        List<String> tables = new ArrayList<>();
        List<String> conditions = new ArrayList<>();
        for (String join : JOIN_WORD.split(" " + joins.strip())) {
            if (join.isBlank()) {
                continue;
            }
            Matcher j = JOIN.matcher(join);
            if (!j.matches() || j.group(2).matches("(?is).*\\b(?:left|right|full|outer|cross|join)\\b.*")) {
                return null; // an outer join, or more than this simple form
            }
            tables.add(j.group(1).strip());
            conditions.add("(" + j.group(2).strip() + ")");
        }
        if (tables.isEmpty()) {
            return null;
        }
        return "exists (select 1 from " + String.join(", ", tables) + " where " + String.join(" and ", conditions)
                + " and (" + where.strip() + "))";
    }
}
