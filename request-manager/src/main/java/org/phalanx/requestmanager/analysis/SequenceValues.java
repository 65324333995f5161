package org.phalanx.requestmanager.analysis;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PostgreSQL session's {@code currval()} and {@code lastval()} for the serial keys the controller
 * chose: with a recovery log the controller gives each INSERT its keys, so the backends' sequences
 * never hand them out and their {@code currval('t_id_seq')} answered a stale value, or 55000, on
 * every replica (a child row inserted with it held another parent: an outside tester's finding).
 * The session keeps the last key it was given per sequence, and replaces the calls by it before the
 * statement is analysed, routed or logged, as one PostgreSQL answers its own session's value,
 * whichever pooled connection runs the statement. Once the session calls {@code nextval()} or
 * {@code setval()} itself, the backends' own values are the session's again.
 */
public final class SequenceValues {
    private static final List<String> CALLS = List.of("currval", "lastval", "nextval", "setval");
    private static final Set<String> ADVANCING = Set.of("nextval", "setval");
    /** {@code currval('name')} or {@code currval('name'::regclass)}, from the opening parenthesis. */
    private static final Pattern CURRVAL_ARGUMENT = Pattern.compile("\\G\\s*\\(\\s*'([^']+)'\\s*(?:::\\s*regclass\\s*)?\\)");

    private final Map<String, Long> last = new HashMap<>();
    private Long lastval;

    /** The controller gave the session's INSERT these keys of a column whose default takes {@code sequence}'s values. */
    public void chosen(String sequence, long[] keys) {
        if (keys.length > 0) {
            lastval = keys[keys.length - 1];
            last.put(name(sequence), lastval);
        }
    }

    /**
     * {@code sql} with the calls this session's keys answer replaced by their values; {@code sql}
     * itself if none. {@code asBigint}: where every backend is PostgreSQL, a value is written as the
     * bigint the functions return, and a call that is a whole column of the select list keeps its
     * name ({@code SELECT currval('s')} gives a column {@code currval}, as on PostgreSQL, not an
     * integer named {@code ?column?}).
     */
    public String substitute(String sql, boolean asBigint) {
        if (lastval == null || !SqlLexer.mayCall(sql, CALLS)) {
            return sql;
        }
        if (PooledSessionCalls.firstCall(sql, ADVANCING) != null) {
            last.clear(); // the backends' sequences answer for the session from now on
            lastval = null;
            return sql;
        }
        return SqlLexer.replaceWords(sql, (text, start, end) -> {
            String word = text.substring(start, end).toLowerCase(Locale.ROOT);
            if (word.equals("lastval")) {
                int call = SqlLexer.emptyParensEnd(text, end);
                return call > 0 ? replacement(text, start, call, word, lastval, asBigint) : null;
            }
            if (word.equals("currval")) {
                Matcher m = CURRVAL_ARGUMENT.matcher(text);
                if (m.find(end)) {
                    Long value = last.get(name(m.group(1)));
                    return value == null ? null : replacement(text, start, m.end(), word, value, asBigint);
                }
            }
            return null;
        });
    }

    /** Words that end a select list's column (or the list). */
    private static final Set<String> AFTER_COLUMN = Set.of("from", "where", "union", "except", "intersect", "order",
            "limit", "offset", "fetch", "group", "having", "window", "into", "for");

    private static SqlLexer.Replacement replacement(String text, int start, int end, String function, long value,
                                                    boolean asBigint) {
        if (!asBigint) {
            return new SqlLexer.Replacement(Long.toString(value), end);
        }
        String typed = "CAST(" + value + " AS bigint)";
        return new SqlLexer.Replacement(wholeColumn(text, start, end) ? typed + " AS " + function : typed, end);
    }

    /** Whether text[start, end) is a whole, unnamed column of a select list: after SELECT or a comma, before a comma or the list's end. */
    private static boolean wholeColumn(String text, int start, int end) {
        int before = start - 1;
        while (before >= 0 && Character.isWhitespace(text.charAt(before))) {
            before--;
        }
        boolean opens = before >= 0 && (text.charAt(before) == ','
                || before >= 5 && text.regionMatches(true, before - 5, "select", 0, 6)
                && (before == 5 || !Character.isLetterOrDigit(text.charAt(before - 6))));
        int after = end;
        while (after < text.length() && Character.isWhitespace(text.charAt(after))) {
            after++;
        }
        if (!opens) {
            return false;
        }
        if (after == text.length() || text.charAt(after) == ',' || text.charAt(after) == ';') {
            return true;
        }
        return AFTER_COLUMN.contains(text.substring(after, SqlLexer.wordEnd(text, after)).toLowerCase(Locale.ROOT));
    }

    /** A sequence name as PostgreSQL resolves it: folded to lower case unless quoted, without the default schema. */
    static String name(String written) {
        String n = written.strip();
        n = n.startsWith("\"") ? n.replace("\"", "") : n.toLowerCase(Locale.ROOT);
        return n.startsWith("public.") ? n.substring("public.".length()) : n;
    }
}
