package org.phalanx.requestmanager.analysis;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A routine whose body reads the clock or draws a random value, run by the writes the controller
 * replicates, computes a value of its own on each replica and in each replay of the recovery log,
 * inside statements the controller never sees: the {@code updated_at} trigger setting
 * {@code NEW.updated_at = now()} (measured: PostgreSQL, MariaDB and SQLite replicas 0.3 to 4 ms
 * apart, random values all different), a procedure inserting {@code UUID()}. The controller chooses
 * such values once only in the statements it sees, so the DDL creating such a routine is refused:
 * a trigger with its body (MariaDB, SQLite, PostgreSQL's {@code WHEN} condition), PostgreSQL's
 * trigger functions ({@code RETURNS trigger}), rules and materialized views, a column added with
 * such a default ({@code ALTER TABLE t ADD c ... DEFAULT now()}: the engine fills the existing rows),
 * a procedure, and a function that may write (not
 * PostgreSQL's {@code STABLE} / {@code IMMUTABLE} ones, not MariaDB's {@code DETERMINISTIC}, {@code
 * NO SQL} or {@code READS SQL DATA} ones: those serve reads).
 */
public final class UnrepeatableDdl {
    private static final Pattern TRIGGER = Pattern.compile("(?is)\\s*create\\s+(?:or\\s+replace\\s+)?"
            + "(?:definer\\s*=\\s*\\S+\\s+)?(?:temp(?:orary)?\\s+)?(?:constraint\\s+)?trigger\\b.*");
    private static final Pattern TRIGGER_FUNCTION = Pattern.compile(
            "(?is)\\s*create\\s+(?:or\\s+replace\\s+)?function\\b.*?\\breturns\\s+(?:trigger|event_trigger)\\b.*");
    /** PostgreSQL's rules and materialized views: a rule's action runs inside writes, a materialized view stores its rows. */
    private static final Pattern RULE_OR_STORED_VIEW = Pattern.compile(
            "(?is)\\s*create\\s+(?:or\\s+replace\\s+)?(?:rule|materialized\\s+view)\\b.*");
    /** A column added with a default: the engine fills the existing rows with it, on each replica. */
    private static final Pattern ADDED_WITH_DEFAULT = Pattern.compile("(?is)\\s*alter\\s+table\\b.*\\badd\\b.*\\bdefault\\b.*");
    private static final Pattern ROUTINE = Pattern.compile(
            "(?is)\\s*create\\s+(?:or\\s+replace\\s+)?(?:definer\\s*=\\s*\\S+\\s+)?(procedure|function)\\b.*");
    /** What declares a function unable to write: it serves reads, whose values are one replica's anyway. */
    private static final Pattern READS_ONLY = Pattern.compile(
            "(?is).*\\b(?:stable|immutable|(?<!not\\s)(?<!not\\s\\s)deterministic|no\\s+sql|reads\\s+sql\\s+data)\\b.*");
    /**
     * Calls of the clock and of randomness on any of the engines, and the clock's keywords; in the
     * body, literals included (PostgreSQL's body is one, SQLite's clock is {@code 'now'}).
     */
    private static final Pattern UNREPEATABLE = Pattern.compile("(?i)\\b(now|rand|random|uuid|gen_random_uuid"
            + "|uuid_generate_v\\w*|randomblob|random_bytes|uuid_short|sys_guid|newid|clock_timestamp|statement_timestamp"
            + "|transaction_timestamp|timeofday|sysdate|utc_timestamp|utc_date|utc_time|curdate|curtime|unix_timestamp"
            + "|unixepoch|connection_id|pg_backend_pid|txid_current)\\s*\\("
            + "|\\b(current_timestamp|current_date|current_time|localtimestamp|localtime)\\b|('now')");

    private UnrepeatableDdl() {
    }

    /** What the routine {@code sql} creates calls that each replica would compute for itself; null if nothing, or not such DDL. */
    public static String unrepeatableCall(String sql) {
        if (!runsInWrites(sql)) {
            return null;
        }
        Matcher m = UNREPEATABLE.matcher(sql);
        if (!m.find()) {
            return null;
        }
        return m.group(1) != null ? m.group(1) + "()" : m.group(2) != null ? m.group(2) : m.group(3);
    }

    /**
     * A trigger, a rule, a procedure, a function that may write (what runs inside replicated
     * writes), a materialized view, or a column added with a default (what stores values it computes).
     */
    private static boolean runsInWrites(String sql) {
        String stripped = sql.stripLeading();
        char c = stripped.isEmpty() ? ' ' : Character.toLowerCase(stripped.charAt(0));
        if (c != 'a' && c != 'c') {
            return false; // every write passes here: most are INSERT, UPDATE, DELETE
        }
        String first = SqlLexer.firstWord(sql);
        if (first.equals("alter")) {
            return ADDED_WITH_DEFAULT.matcher(sql).matches();
        }
        if (!first.equals("create")) {
            return false; // every write passes here
        }
        if (TRIGGER.matcher(sql).matches() || TRIGGER_FUNCTION.matcher(sql).matches()
                || RULE_OR_STORED_VIEW.matcher(sql).matches()) {
            return true;
        }
        Matcher routine = ROUTINE.matcher(sql);
        return routine.matches() && (routine.group(1).equalsIgnoreCase("procedure") || !READS_ONLY.matcher(sql).matches());
    }
}
