package org.phalanx.requestmanager.analysis;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.phalanx.engine.Engine;

/**
 * Functions that answer about the calling connection's own past, which Phalanx spreads over pooled
 * connections and backends, so that one would answer another client's value — in a write,
 * possibly a different one on each replica:
 * <ul>
 * <li>PostgreSQL's {@code currval()} and {@code lastval()}, MariaDB's {@code LASTVAL()} and
 * {@code PREVIOUS VALUE FOR} (the session's last sequence value): outside a transaction, and in one
 * before its first write. Inside a transaction that has written, statements run on the
 * transaction's own connection on every backend, after its inserts there, and they answer as on
 * one database.</li>
 * <li>MariaDB's {@code ROW_COUNT()} and {@code FOUND_ROWS()}, SQLite's {@code changes()} and
 * {@code total_changes()} (about the connection's previous statements), always: even in a
 * transaction, its reads and writes may run on different backends' connections.</li>
 * </ul>
 * A query or data change calling one (in code, not in a literal or comment) is refused; DDL is left
 * alone: a function or procedure body calling them runs inside its caller's statement, on its
 * connection. The last inserted id of SQLite and MariaDB is followed instead ({@link LastInsertId}).
 */
public final class PooledSessionCalls {
    private static final Map<Engine, Set<String>> OUTSIDE_WRITING_TRANSACTIONS =
            Map.of(Engine.POSTGRESQL, Set.of("currval", "lastval"), Engine.MARIADB, Set.of("lastval"));
    /** MariaDB's other way to ask for a sequence's last value, which is no call. */
    private static final String PREVIOUS_VALUE = "previous value for";
    private static final Map<Engine, Set<String>> ALWAYS =
            Map.of(Engine.MARIADB, Set.of("row_count", "found_rows"), Engine.SQLITE, Set.of("changes", "total_changes"));
    /** Every name above: one look at a statement's parentheses tells whether any engine's list matters. */
    private static final Set<String> ANY = Stream.concat(OUTSIDE_WRITING_TRANSACTIONS.values().stream(), ALWAYS.values().stream())
            .flatMap(Set::stream).collect(Collectors.toUnmodifiableSet());
    /** Words after which a name followed by a parenthesis is a table's ({@code INSERT INTO t (a)}). */
    private static final Set<String> NAMES_A_TABLE = Set.of("into", "update", "table", "from", "join");
    /** First words of queries and data changes (not DDL: a routine's body is not looked into). */
    static final Set<String> STATEMENTS = Set.of("select", "insert", "update", "delete", "with", "values", "merge",
            "replace");

    private PooledSessionCalls() {
    }

    /**
     * The function {@code sql} calls that a virtual database whose backends speak {@code dialects}
     * must refuse, or null.
     *
     * @param dialects   asked only when the text may call one of these functions (nearly no statement does)
     * @param hasWritten whether the session's transaction has joined the backends (its first write)
     */
    public static String refused(String sql, Supplier<? extends Collection<Engine>> dialects, boolean hasWritten) {
        if (!hasWritten && SqlLexer.containsIgnoreCase(sql, "previous") && dialects.get().contains(Engine.MARIADB)
                && asksPreviousValue(sql)) {
            return PREVIOUS_VALUE;
        }
        if (!SqlLexer.mayCall(sql, ANY)) {
            return null;
        }
        for (Engine dialect : dialects.get()) {
            String call = firstCall(sql, ALWAYS.getOrDefault(dialect, Set.of()));
            if (call == null && !hasWritten) {
                call = firstCall(sql, OUTSIDE_WRITING_TRANSACTIONS.getOrDefault(dialect, Set.of()));
            }
            if (call != null) {
                return call;
            }
        }
        return null;
    }

    /** Whether a query or data change says {@code PREVIOUS VALUE FOR} (in code, not in a literal). */
    static boolean asksPreviousValue(String sql) {
        String[] last = {"", "", ""}; // the statement's first word, then the two words before this one
        boolean[] found = {false};
        SqlLexer.replaceWords(sql, (text, start, end) -> {
            String word = text.substring(start, end).toLowerCase(Locale.ROOT);
            if (last[0].isEmpty()) {
                last[0] = word;
            } else if (word.equals("for") && last[1].equals("previous") && last[2].equals("value")) {
                found[0] = true;
            }
            last[1] = last[2];
            last[2] = word;
            return null;
        });
        return found[0] && STATEMENTS.contains(last[0]);
    }

    /** The first of {@code functions} a query or data change calls, or null. */
    static String firstCall(String sql, Set<String> functions) {
        if (functions.isEmpty() || !SqlLexer.mayCall(sql, functions)) {
            return null; // what nearly every statement takes: no copy, no scan of words
        }
        boolean[] first = {true};
        boolean[] dataStatement = {false};
        String[] found = {null};
        String[] previous = {""};
        SqlLexer.replaceWords(sql, (text, start, end) -> {
            String word = text.substring(start, end).toLowerCase(Locale.ROOT);
            if (first[0]) {
                first[0] = false;
                dataStatement[0] = STATEMENTS.contains(word);
            } else if (dataStatement[0] && found[0] == null && functions.contains(word) && SqlLexer.opensParenthesis(text, end)
                    && !NAMES_A_TABLE.contains(previous[0])) { // INSERT INTO database (x): a table, not a call
                found[0] = word;
            }
            previous[0] = word;
            return null;
        });
        return found[0];
    }
}
