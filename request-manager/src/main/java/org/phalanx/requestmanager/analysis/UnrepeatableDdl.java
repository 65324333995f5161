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
    private static final Pattern UNREPEATABLE = Pattern.compile("(?i)\\b(now|rand|random|uuid_generate_v\\w*"
            + "|clock_timestamp|statement_timestamp|transaction_timestamp|sysdate|utc_timestamp|utc_date|utc_time|curdate"
            + "|curtime|unix_timestamp|unixepoch|" + String.join("|", UnrepeatableCalls.FUNCTIONS) + ")\\s*\\("
            + "|\\b(current_timestamp|current_date|current_time|localtimestamp|localtime)\\b|('now')");
    /**
     * What a PostgreSQL {@code DO} block's body may call that each replica answers its own way: the
     * calls no replica computes like another ({@link UnrepeatableCalls}). Not the clock: the
     * controller chooses {@code now()} in the block's text as in any statement.
     */
    private static final Pattern UNREPEATABLE_IN_BLOCK = Pattern.compile("(?i)\\b("
            + String.join("|", UnrepeatableCalls.FUNCTIONS) + "|uuid_generate_v\\w*)\\s*\\(");

    private UnrepeatableDdl() {
    }

    /** What the routine {@code sql} creates calls that each replica would compute for itself; null if nothing, or not such DDL. */
    public static String unrepeatableCall(String sql) {
        if (isBlock(sql)) { // PostgreSQL's anonymous block: its body runs now, on each replica
            Matcher m = UNREPEATABLE_IN_BLOCK.matcher(sql);
            return m.find() ? m.group(1) + "()" : null;
        }
        if (!runsInWrites(sql)) {
            return null;
        }
        Matcher m = UNREPEATABLE.matcher(sql);
        if (!m.find()) {
            return null;
        }
        return m.group(1) != null ? m.group(1) + "()" : m.group(2) != null ? m.group(2) : m.group(3);
    }

    /** PostgreSQL: a column added as serial or identity, which the engine numbers in its scan order. */
    private static final Pattern ADDED_NUMBERED = Pattern.compile("(?is)\\s*alter\\s+table\\b.*\\badd\\b.*"
            + "(?:\\b(?:small|big)?serial\\b|\\bserial[248]\\b|\\bgenerated\\s+(?:always|by\\s+default)\\s+as\\s+identity\\b).*");
    /** PostgreSQL: a sequence (or identity) declared with a cache of more than one value. */
    private static final Pattern SEQUENCE_CACHE = Pattern.compile("(?is).*\\bcache\\s+0*(?:[2-9]|[1-9]\\d+)\\b.*");

    /** MariaDB's scheduled events: each server would run them on its own clock, outside any order. */
    private static final Pattern EVENT = Pattern.compile("(?is)\\s*(?:create|alter)\\s+(?:or\\s+replace\\s+)?"
            + "(?:definer\\s*=\\s*\\S+\\s+)?event\\b.*");

    /** Whether {@code sql} creates or alters a MariaDB event, which every backend's scheduler would run for itself. */
    public static boolean schedulesEvent(String sql) {
        return (startsWith(sql, 'c') || startsWith(sql, 'a')) && EVENT.matcher(sql).matches();
    }

    /** Whether {@code sql} adds a column PostgreSQL numbers itself (serial, identity) to a table that may hold rows. */
    public static boolean numbersExistingRows(String sql) {
        return startsWith(sql, 'a') && ADDED_NUMBERED.matcher(sql).matches();
    }

    /**
     * Whether {@code sql} creates or alters a sequence or an identity with a cache above one:
     * PostgreSQL caches per connection, so pooled connections on each replica hand out other values.
     */
    public static boolean cachesSequenceValues(String sql) {
        return (startsWith(sql, 'c') || startsWith(sql, 'a')) && SqlLexer.containsIgnoreCase(sql, "cache")
                && SEQUENCE_CACHE.matcher(sql).matches()
                && (SqlLexer.containsIgnoreCase(sql, "sequence") || SqlLexer.containsIgnoreCase(sql, "identity"));
    }

    private static boolean startsWith(String sql, char first) {
        String stripped = sql.stripLeading();
        return !stripped.isEmpty() && Character.toLowerCase(stripped.charAt(0)) == first;
    }

    private static boolean isBlock(String sql) {
        return startsWith(sql, 'd') && SqlLexer.firstWord(sql).equals("do"); // most writes do not start so
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
