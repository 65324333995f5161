package org.phalanx.requestmanager.hetero;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What SQLite lacks, done its own way:
 * <ul>
 *   <li>sequences: a sequence is a one-row table holding the next value and the increment, and
 *       taking the next value is an UPDATE ... RETURNING on it. Like every write it runs on every
 *       backend in the total order, so the table advances alike with the PostgreSQL or MariaDB
 *       sequence beside it, and the recovery log replays it the same way;</li>
 *   <li>a primary key or unique constraint added to an existing table (SQLite's ALTER TABLE cannot):
 *       a unique index of that name on those columns, which refuses the same rows.</li>
 * </ul>
 */
final class SqliteEmulations {
    private static final String NAME = "[`\"]?([\\w]+)[`\"]?";
    private static final Pattern CREATE = Pattern.compile("(?is)\\s*create\\s+sequence\\s+(if\\s+not\\s+exists\\s+)?"
            + NAME + "(.*?);?\\s*");
    private static final Pattern START = Pattern.compile("(?i)\\bstart\\s+(?:with\\s+|=\\s*)?(-?\\d+)");
    private static final Pattern INCREMENT = Pattern.compile("(?i)\\bincrement\\s+(?:by\\s+|=\\s*)?(-?\\d+)");
    private static final Pattern DROP = Pattern.compile("(?is)\\s*drop\\s+sequence\\s+(if\\s+exists\\s+)?" + NAME
            + "(?:\\s+(?:cascade|restrict))?\\s*;?\\s*");
    /** A statement that only takes a sequence's next value: PostgreSQL's and MariaDB's spellings. */
    private static final Pattern NEXT_VALUE = Pattern.compile("(?is)\\s*select\\s+(?:nextval\\s*\\(\\s*'?" + NAME
            + "'?(?:::regclass)?\\s*\\)|next\\s+value\\s+for\\s+" + NAME + ")(?:\\s+as\\s+\\w+)?\\s*;?\\s*");

    private static final String TABLE = "((?:[`\"]?\\w+[`\"]?\\.)?[`\"]?\\w+[`\"]?)";
    private static final Pattern ADD_KEY = Pattern.compile("(?is)\\s*alter\\s+table\\s+(?:if\\s+exists\\s+)?" + TABLE
            + "\\s+add\\s+constraint\\s+" + NAME + "\\s+(?:primary\\s+key|unique)\\s*(\\([^)]*\\))\\s*;?\\s*");

    private SqliteEmulations() {
    }

    /** SQLite's form of the statement, or null if {@code sql} is none of those emulated. */
    static String emulate(String sql) {
        Matcher m = ADD_KEY.matcher(sql);
        if (m.matches()) {
            return "CREATE UNIQUE INDEX " + m.group(2) + " ON " + m.group(1) + " " + m.group(3);
        }
        m = CREATE.matcher(sql);
        if (m.matches()) {
            Matcher start = START.matcher(m.group(3));
            Matcher increment = INCREMENT.matcher(m.group(3));
            long by = increment.find() ? Long.parseLong(increment.group(1)) : 1;
            long first = start.find() ? Long.parseLong(start.group(1)) : 1;
            return "CREATE TABLE " + (m.group(1) != null ? "IF NOT EXISTS " : "") + m.group(2)
                    + " AS SELECT " + first + " AS next_val, " + by + " AS increment_by";
        }
        m = DROP.matcher(sql);
        if (m.matches()) {
            return "DROP TABLE " + (m.group(1) != null ? "IF EXISTS " : "") + m.group(2);
        }
        m = NEXT_VALUE.matcher(sql);
        if (m.matches()) {
            String name = m.group(1) != null ? m.group(1) : m.group(2);
            return "UPDATE " + name + " SET next_val = next_val + increment_by RETURNING next_val - increment_by AS nextval";
        }
        return null;
    }
}
