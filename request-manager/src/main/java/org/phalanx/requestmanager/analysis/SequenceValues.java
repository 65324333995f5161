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

    /** {@code sql} with the calls this session's keys answer replaced by their values; {@code sql} itself if none. */
    public String substitute(String sql) {
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
                return call > 0 ? new SqlLexer.Replacement(Long.toString(lastval), call) : null;
            }
            if (word.equals("currval")) {
                Matcher m = CURRVAL_ARGUMENT.matcher(text);
                if (m.find(end)) {
                    Long value = last.get(name(m.group(1)));
                    return value == null ? null : new SqlLexer.Replacement(Long.toString(value), m.end());
                }
            }
            return null;
        });
    }

    /** A sequence name as PostgreSQL resolves it: folded to lower case unless quoted, without the default schema. */
    static String name(String written) {
        String n = written.strip();
        n = n.startsWith("\"") ? n.replace("\"", "") : n.toLowerCase(Locale.ROOT);
        return n.startsWith("public.") ? n.substring("public.".length()) : n;
    }
}
