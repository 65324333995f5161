package org.phalanx.requestmanager.analysis;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A trigger whose body reads the clock or draws a random value — the {@code updated_at} trigger
 * setting {@code NEW.updated_at = now()} — runs on each replica, and in each replay of the recovery
 * log, inside a statement the controller did not rewrite: each computes its own value (measured:
 * PostgreSQL, MariaDB and SQLite replicas 0.3 to 4 ms apart, random values all different). The
 * controller chooses such values once only in the statements it sees, so the DDL creating such a
 * trigger is refused. Recognised: a trigger with its body (MariaDB, SQLite, PostgreSQL's
 * {@code WHEN} condition) and PostgreSQL's trigger functions ({@code RETURNS trigger}).
 */
public final class UnrepeatableTriggers {
    private static final Pattern TRIGGER = Pattern.compile("(?is)\\s*create\\s+(?:or\\s+replace\\s+)?"
            + "(?:definer\\s*=\\s*\\S+\\s+)?(?:temp(?:orary)?\\s+)?(?:constraint\\s+)?trigger\\b.*");
    private static final Pattern TRIGGER_FUNCTION = Pattern.compile(
            "(?is)\\s*create\\s+(?:or\\s+replace\\s+)?function\\b.*?\\breturns\\s+(?:trigger|event_trigger)\\b.*");
    /**
     * Calls of the clock and of randomness on any of the engines, and the clock's keywords; in the
     * body, literals included (PostgreSQL's body is one, SQLite's clock is {@code 'now'}).
     */
    private static final Pattern UNREPEATABLE = Pattern.compile("(?i)\\b(now|rand|random|uuid|gen_random_uuid"
            + "|uuid_generate_v\\w*|randomblob|random_bytes|uuid_short|sys_guid|newid|clock_timestamp|statement_timestamp"
            + "|transaction_timestamp|timeofday|sysdate|utc_timestamp|utc_date|utc_time|curdate|curtime|unix_timestamp"
            + "|unixepoch|connection_id|pg_backend_pid|txid_current)\\s*\\("
            + "|\\b(current_timestamp|current_date|current_time|localtimestamp|localtime)\\b|('now')");

    private UnrepeatableTriggers() {
    }

    /** What the trigger (or trigger function) {@code sql} creates calls that each replica would compute for itself; null if nothing, or not such DDL. */
    public static String unrepeatableCall(String sql) {
        if (!SqlLexer.containsIgnoreCase(sql, "trigger")) {
            return null; // every write passes here
        }
        if (!TRIGGER.matcher(sql).matches() && !TRIGGER_FUNCTION.matcher(sql).matches()) {
            return null;
        }
        Matcher m = UNREPEATABLE.matcher(sql);
        if (!m.find()) {
            return null;
        }
        return m.group(1) != null ? m.group(1) + "()" : m.group(2) != null ? m.group(2) : m.group(3);
    }
}
