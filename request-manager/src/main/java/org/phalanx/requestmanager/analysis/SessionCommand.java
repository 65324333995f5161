package org.phalanx.requestmanager.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A statement that changes only the session's own parameters: PostgreSQL's {@code SET name
 * {=|TO} value}, {@code SET TIME ZONE}, {@code SET ROLE}, {@code SET SESSION AUTHORIZATION},
 * {@code SET SCHEMA}, {@code SET NAMES}, {@code RESET name}, {@code RESET ALL}; MariaDB's
 * {@code SET [SESSION] name = value[, ...]}, {@code SET @@[session.]name = value}, {@code SET NAMES};
 * SQLite's {@code PRAGMA name = value} / {@code PRAGMA name(value)} for the pragmas that belong to
 * the connection ({@link #CONNECTION_PRAGMAS}; named {@code pragma:name} among the settings).
 * {@code SET LOCAL} too ({@link #local}: on PostgreSQL, until the end of the transaction). Not:
 * {@code SET CONSTRAINTS} (the transaction's), {@code SET TRANSACTION}
 * (handled as the JDBC call), {@code SET GLOBAL} / {@code PERSIST} (the server's),
 * {@code autocommit}. MariaDB user variables ({@code SET @v = 42}) are the session's like
 * parameters (named {@code @v} among the settings); set to an expression ({@code SET @v = NOW()},
 * a subquery), a value each backend would compute for itself, the controller computes it once.
 *
 * @param reset  the names this command resets to their defaults (a SET to DEFAULT resets)
 * @param set    the assignments it makes, each as a statement of its own
 * @param resetAll {@code RESET ALL}: every parameter but the role and session authorization
 * @param local    written {@code SET LOCAL}: PostgreSQL's lasts until the transaction ends (and
 *                 does nothing outside one); MariaDB's is its {@code SET SESSION}
 */
public record SessionCommand(List<String> reset, List<Assignment> set, boolean resetAll, boolean local) {
    public SessionCommand(List<String> reset, List<Assignment> set, boolean resetAll) {
        this(reset, set, resetAll, false);
    }

    /**
     * One parameter's assignment: its normalized name and the statement that sets it; for a user
     * variable set to anything but a literal, {@code sql} is null and {@code computed} the
     * expression, which the controller evaluates once ({@link #computedAs}).
     */
    public record Assignment(String name, String sql, String computed) {
        public Assignment(String name, String sql) {
            this(name, sql, null);
        }
    }

    /** The role parameters, which PostgreSQL's RESET ALL leaves alone. */
    public static final Set<String> ROLES = Set.of("role", "session_authorization");

    /**
     * SQLite pragmas that set the connection's behaviour, not the database file's (those —
     * {@code user_version}, {@code journal_mode}, ... — are writes, replicated like any other).
     */
    public static final Set<String> CONNECTION_PRAGMAS = Set.of("foreign_keys", "recursive_triggers",
            "case_sensitive_like", "busy_timeout", "cache_size", "temp_store", "query_only",
            "reverse_unordered_selects", "automatic_index", "ignore_check_constraints", "legacy_alter_table",
            "trusted_schema", "cache_spill", "synchronous");
    /** The prefix of a pragma's name among the settings. */
    public static final String PRAGMA = "pragma:";
    private static final Pattern PRAGMA_ASSIGNMENT = Pattern.compile(
            "(?is)\\s*pragma\\s+(?:main\\s*\\.\\s*)?([a-z_]+)\\s*(?:=\\s*(.+?)|\\(\\s*(.+?)\\s*\\))[\\s;]*");
    private static final Set<String> NOT_SESSION = Set.of("local", "transaction", "constraints", "global",
            "persist", "persist_only", "autocommit", "characteristics", "statement", "password", "default");
    private static final Set<String> NOT_RESETTABLE = Set.of("master", "slave", "replica", "query", "persist");
    private static final Pattern SET = Pattern.compile("(?is)\\s*set\\s+(?:session\\s+(?!authorization\\b))?(.+?)[\\s;]*");
    private static final Pattern RESET = Pattern.compile("(?is)\\s*reset\\s+(.+?)[\\s;]*");
    private static final Pattern ASSIGNMENT = Pattern.compile(
            "(?is)(?:@@(?:session\\.)?)?([a-z_][a-z0-9_.]*)\\s*(?:=|:=|\\bto\\b)\\s*(.+)");
    /** {@code @name = literal}: a number, a quoted string, NULL, TRUE or FALSE. */
    private static final Pattern USER_VARIABLE = Pattern.compile(
            "(?is)@([a-z_][a-z0-9_$]*)\\s*:?=\\s*(-?\\d+(?:\\.\\d+)?|'(?:[^'\\\\]|'')*'|null|true|false)");
    /** {@code @name = expression}. */
    private static final Pattern COMPUTED_VARIABLE = Pattern.compile("(?is)@([a-z_][a-z0-9_$]*)\\s*:?=\\s*(.+)");
    private static final Pattern SPECIAL = Pattern.compile(
            "(?is)(time\\s+zone|role|session\\s+authorization|schema|names|character\\s+set)\\s+(.+)");

    /**
     * The statement with its parameters written in as literals (Flyway sends {@code SET
     * foreign_key_checks=?, sql_safe_updates=?}): the settings are kept as text, to run again on
     * other connections.
     */
    public static String withParameters(String sql, List<Object> params) {
        if (params.isEmpty()) {
            return sql;
        }
        StringBuilder out = new StringBuilder();
        int next = 0;
        int i = 0;
        while (i < sql.length()) {
            int skipped = SqlLexer.skipNonCode(sql, i);
            if (skipped != i) {
                out.append(sql, i, skipped);
                i = skipped;
            } else {
                char c = sql.charAt(i++);
                out.append(c == '?' && next < params.size() ? literal(params.get(next++)) : String.valueOf(c));
            }
        }
        return out.toString();
    }

    private static String literal(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof java.math.BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        if (value instanceof byte[] bytes) {
            return "X'" + java.util.HexFormat.of().formatHex(bytes) + "'";
        }
        String text = value.toString();
        if (text.indexOf('\\') >= 0) {
            // engines read a backslash in a literal differently (MariaDB: an escape)
            throw new IllegalArgumentException("a session parameter's value may not contain a backslash");
        }
        return "'" + text.replace("'", "''") + "'";
    }

    /** The command, or null when {@code sql} is not a session command. */
    public static SessionCommand parse(String sql) {
        Matcher pragma = PRAGMA_ASSIGNMENT.matcher(sql);
        if (pragma.matches()) {
            String name = pragma.group(1).toLowerCase(Locale.ROOT);
            String value = pragma.group(2) != null ? pragma.group(2) : pragma.group(3);
            return CONNECTION_PRAGMAS.contains(name) ? new SessionCommand(List.of(),
                    List.of(new Assignment(PRAGMA + name, "PRAGMA " + name + " = " + value)), false) : null;
        }
        Matcher reset = RESET.matcher(sql);
        if (reset.matches()) {
            return parseReset(reset.group(1));
        }
        Matcher set = SET.matcher(sql);
        if (!set.matches()) {
            return null;
        }
        String body = set.group(1);
        String firstWord = body.split("[\\s=@]", 2)[0].toLowerCase(Locale.ROOT);
        if (firstWord.equals("local")) {
            SessionCommand session = parse("SET " + body.substring(firstWord.length()).strip());
            return session == null || session.resetAll() ? null
                    : new SessionCommand(session.reset(), session.set(), false, true);
        }
        if (body.startsWith("@") && !body.startsWith("@@")) {
            return userVariables(body);
        }
        if (NOT_SESSION.contains(firstWord)
                || body.toLowerCase(Locale.ROOT).startsWith("@@global") || body.contains(";")
                || SqlLexer.containsWord(body, "select")) { // a value each backend would compute itself
            return null;
        }
        Matcher special = SPECIAL.matcher(body);
        if (special.matches()) {
            String name = switch (special.group(1).toLowerCase(Locale.ROOT).replaceAll("\\s+", " ")) {
                case "time zone" -> "timezone";
                case "session authorization" -> "session_authorization";
                case "schema" -> "search_path";
                case "character set" -> "names";
                default -> special.group(1).toLowerCase(Locale.ROOT);
            };
            return one(name, special.group(2), "SET " + body);
        }
        List<String> parts = topLevelParts(body);
        List<Assignment> assignments = new ArrayList<>();
        List<String> resets = new ArrayList<>();
        for (String part : parts) {
            Matcher m = ASSIGNMENT.matcher(part.strip());
            if (!m.matches()) {
                // PostgreSQL's list value (SET search_path = a, b): the whole body is one assignment
                return parts.size() > 1 ? whole(body) : null;
            }
            String name = m.group(1).toLowerCase(Locale.ROOT);
            if (NOT_SESSION.contains(name)) {
                return null;
            }
            if (isDefault(m.group(2))) {
                resets.add(name);
            } else {
                assignments.add(new Assignment(name, "SET " + part.strip()));
            }
        }
        return new SessionCommand(List.copyOf(resets), List.copyOf(assignments), false);
    }

    /** {@code SET @a = 1, @b = 'x', @c = (SELECT ...)}: literals as they are, expressions to compute. */
    private static SessionCommand userVariables(String body) {
        List<Assignment> assignments = new ArrayList<>();
        for (String part : topLevelParts(body)) {
            Matcher literal = USER_VARIABLE.matcher(part.strip());
            Matcher computed = COMPUTED_VARIABLE.matcher(part.strip());
            if (literal.matches()) {
                assignments.add(new Assignment("@" + literal.group(1).toLowerCase(Locale.ROOT), "SET " + part.strip()));
            } else if (computed.matches()) {
                assignments.add(new Assignment("@" + computed.group(1).toLowerCase(Locale.ROOT), null, computed.group(2)));
            } else {
                return null;
            }
        }
        return new SessionCommand(List.of(), List.copyOf(assignments), false);
    }

    /** The expressions to compute, in order (one SELECT computes them all); empty if none. */
    public List<String> expressions() {
        return set.stream().map(Assignment::computed).filter(e -> e != null).toList();
    }

    /** This command with its expressions replaced by the values computed, in {@link #expressions} order. */
    public SessionCommand computedAs(List<Object> values) {
        List<Assignment> assignments = new ArrayList<>();
        int next = 0;
        for (Assignment a : set) {
            assignments.add(a.computed() == null ? a
                    : new Assignment(a.name(), "SET " + a.name() + " = " + literal(values.get(next++))));
        }
        return new SessionCommand(reset, List.copyOf(assignments), resetAll, local);
    }

    private static SessionCommand whole(String body) {
        Matcher m = ASSIGNMENT.matcher(body);
        if (!m.matches()) {
            return null;
        }
        return one(m.group(1).toLowerCase(Locale.ROOT), m.group(2), "SET " + body);
    }

    private static SessionCommand one(String name, String value, String sql) {
        if (NOT_SESSION.contains(name)) {
            return null;
        }
        String v = value.strip().toLowerCase(Locale.ROOT);
        boolean backToDefault = isDefault(v) || v.equals("local") && name.equals("timezone")
                || v.equals("none") && name.equals("role");
        return backToDefault ? new SessionCommand(List.of(name), List.of(), false)
                : new SessionCommand(List.of(), List.of(new Assignment(name, sql)), false);
    }

    private static SessionCommand parseReset(String body) {
        String what = body.strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        if (what.equals("all")) {
            return new SessionCommand(List.of(), List.of(), true);
        }
        String name = switch (what) {
            case "time zone" -> "timezone";
            case "session authorization" -> "session_authorization";
            default -> what;
        };
        if (NOT_RESETTABLE.contains(name.split(" ")[0]) || !name.matches("[a-z_][a-z0-9_.]*")) {
            return null;
        }
        return new SessionCommand(List.of(name), List.of(), false);
    }

    private static boolean isDefault(String value) {
        return value.strip().equalsIgnoreCase("default");
    }

    /** The comma-separated parts of a SET body, commas inside quotes or parentheses left alone. */
    private static List<String> topLevelParts(String body) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        int i = 0;
        while (i < body.length()) {
            int skipped = SqlLexer.skipNonCode(body, i);
            if (skipped != i) {
                i = skipped;
                continue;
            }
            char c = body.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(body.substring(start, i));
                start = i + 1;
            }
            i++;
        }
        parts.add(body.substring(start));
        return parts;
    }
}
