package org.phalanx.requestmanager.session;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.phalanx.requestmanager.analysis.DdlEffect;
import org.phalanx.requestmanager.analysis.SqlAnalysis;

/**
 * The names of the temporary tables one session has created ({@link TemporaryTables}), and what
 * its statements do to them. A name it shares with a regular table means the temporary table, as
 * on PostgreSQL, MariaDB and SQLite, where it hides the other.
 */
final class TemporaryTableNames {
    private static final String NAME = "((?:\"[^\"]+\"|`[^`]+`|\\[[^\\]]+\\]|[\\w$]+)(?:\\s*\\.\\s*(?:\"[^\"]+\"|`[^`]+`|[\\w$]+))?)";
    private static final String START = "(?is)^(?:\\s|--[^\\n]*\\n|/\\*.*?\\*/)*";
    /**
     * {@code CREATE [OR REPLACE] [GLOBAL|LOCAL] TEMP[ORARY] TABLE|VIEW [IF NOT EXISTS] t}, PostgreSQL's
     * {@code CREATE TABLE pg_temp.t} and {@code SELECT ... INTO TEMP [TABLE] t}: a temporary view
     * lives where a temporary table does, on the session's own connection.
     */
    private static final Pattern CREATED = Pattern.compile(START + "(?:create\\s+(?:or\\s+replace\\s+)?"
            + "(?:(?:global|local)\\s+)?temp(?:orary)?\\s+(?:table|view)\\s+(?:if\\s+not\\s+exists\\s+)?" + NAME
            + "|select\\b.*?\\binto\\s+(?:temp|temporary)\\s+(?:table\\s+)?" + NAME
            + "|create\\s+(?:or\\s+replace\\s+)?(?:table|view)\\s+(?:if\\s+not\\s+exists\\s+)?"
            + "(pg_temp(?:_\\d+)?\\s*\\.\\s*(?:\"[^\"]+\"|[\\w$]+)))");
    /** Temporary objects other than tables and views: a sequence would be created on whichever pooled connection ran it. */
    private static final Pattern OTHER_TEMPORARY = Pattern.compile(START + "create\\s+(?:(?:global|local)\\s+)?"
            + "(?:temp(?:orary)?\\s+\\w+|\\w+\\s+pg_temp(?:_\\d+)?\\s*\\.)");

    /**
     * {@code DROP [TEMPORARY] TABLE [IF EXISTS] t [, u ...] [CASCADE | RESTRICT]} (MariaDB's TEMPORARY
     * form is beyond the parser).
     */
    private static final Pattern DROPPED = Pattern.compile(
            START + "drop\\s+(?:temporary\\s+)?table\\s+(?:if\\s+exists\\s+)?(" + NAME
                    + "(?:\\s*,\\s*" + NAME + ")*)\\s*(?:cascade|restrict)?\\s*;?\\s*$");
    private static final Pattern ONE_NAME = Pattern.compile(NAME);
    /** Schemas that name where temporary tables live: PostgreSQL's {@code pg_temp[_n]}, SQLite's {@code temp}. */
    private static final Pattern TEMPORARY_SCHEMA = Pattern.compile("(?i)pg_temp(?:_\\d+)?|temp");

    /** PostgreSQL's {@code CREATE TEMP TABLE ... ON COMMIT DROP}: gone when its transaction ends. */
    private static final Pattern ON_COMMIT_DROP = Pattern.compile("(?is)\\bon\\s+commit\\s+drop\\b");

    private final Set<String> names = new HashSet<>();
    /** What the open transaction did to the names, in order (a rollback undoes it in reverse). */
    private final List<Change> changes = new ArrayList<>();

    private record Change(String name, boolean created, boolean droppedAtCommit) {
    }

    /** The table a statement creates as temporary, or null. */
    static String created(String sql) {
        if (!mentionsTemp(sql)) {
            return null; // nearly every statement: no pattern matching on the way of each read
        }
        Matcher m = CREATED.matcher(sql);
        if (!m.find()) {
            return null;
        }
        return normalized(m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3));
    }

    /** Why the statement, which creates a temporary object other than a table or view, is refused; null if it is not one. */
    static String unsupported(String sql) {
        if (!mentionsTemp(sql) || CREATED.matcher(sql).find() || !OTHER_TEMPORARY.matcher(sql).find()) {
            return null;
        }
        return "temporary objects other than tables and views (a temporary sequence, say) are not supported: the"
                + " session's statements run on pooled connections of every backend, where other sessions would see"
                + " them. Use a temporary table, or a regular object";
    }

    boolean isEmpty() {
        return names.isEmpty();
    }

    /** Whether the statement names one of the session's temporary tables. */
    boolean touches(SqlAnalysis a, String sql) {
        if (names.isEmpty()) {
            return false;
        }
        if (dropped(sql).stream().anyMatch(this::isTemporary)) {
            return true; // the analysis names one table of a DROP, or none
        }
        if (!a.parsed()) { // not understood: any word of it may be one
            for (String word : sql.toLowerCase(Locale.ROOT).split("[^\\w$]+")) {
                if (names.contains(word)) {
                    return true;
                }
            }
            return false;
        }
        return tables(a).stream().anyMatch(this::isTemporary);
    }

    /** Whether the statement is a read of the session's temporary tables alone. */
    boolean readsOnlyTemporary(SqlAnalysis a) {
        return a.kind() == org.phalanx.requestmanager.analysis.StatementKind.READ && a.parsed() && !a.readTables().isEmpty()
                && a.readTables().stream().allMatch(this::isTemporary);
    }

    /** Whether everything the statement may change is one of the session's temporary tables. */
    boolean changesOnlyTemporary(SqlAnalysis a, String sql) {
        List<String> dropped = dropped(sql);
        if (!dropped.isEmpty() && dropped.stream().allMatch(this::isTemporary)) {
            return true;
        }
        if (!a.kind().isWrite()) {
            return true;
        }
        DdlEffect ddl = a.ddl();
        if (ddl != null) {
            return isTemporary(ddl.table()); // a rename of one stays one
        }
        return a.parsed() && !a.allTables() && !a.writtenTables().isEmpty()
                && a.writtenTables().stream().allMatch(this::isTemporary);
    }

    /**
     * After the statement ran on the home: the names it created, dropped or renamed; inside a
     * transaction ({@code inTransaction}) also remembered, to be undone if it rolls back.
     */
    void ran(SqlAnalysis a, String sql, String created, boolean inTransaction) {
        if (created != null) {
            boolean atCommit = ON_COMMIT_DROP.matcher(sql).find();
            if (atCommit && !inTransaction) {
                return; // its own transaction ended with the statement, and it with it
            }
            names.add(created);
            changed(inTransaction, created, true, atCommit);
        }
        List<String> dropped = dropped(sql);
        if (!dropped.isEmpty()) {
            for (String name : dropped) {
                if (names.remove(name)) {
                    changed(inTransaction, name, false, false);
                }
            }
            return;
        }
        DdlEffect ddl = a.ddl();
        if (ddl == null || !isTemporary(ddl.table())) {
            return;
        }
        if (ddl.type() == DdlEffect.Type.RENAME && ddl.newName() != null) {
            String old = normalized(ddl.table());
            String renamed = normalized(ddl.newName());
            names.remove(old);
            names.add(renamed);
            changed(inTransaction, old, false, false);
            changed(inTransaction, renamed, true, false);
        }
    }

    private void changed(boolean inTransaction, String name, boolean created, boolean droppedAtCommit) {
        if (inTransaction) {
            changes.add(new Change(name, created, droppedAtCommit));
        }
    }

    /**
     * The session's transaction ended: its {@code ON COMMIT DROP} tables are gone if it committed;
     * if it rolled back on an engine whose DDL is transactional ({@code transactionalDdl}: PostgreSQL,
     * SQLite; MariaDB's temporary tables stay), what it created is gone and what it dropped is back.
     */
    void transactionEnded(boolean committed, boolean transactionalDdl) {
        if (committed) {
            for (Change c : changes) {
                if (c.created() && c.droppedAtCommit()) {
                    names.remove(c.name());
                }
            }
        } else if (transactionalDdl) {
            for (int i = changes.size() - 1; i >= 0; i--) {
                Change c = changes.get(i);
                if (c.created()) {
                    names.remove(c.name());
                } else {
                    names.add(c.name());
                }
            }
        }
        changes.clear();
    }

    /** Whether "temp" appears in the text: only then can a statement create a temporary object. */
    static boolean mentionsTemp(String sql) {
        for (int i = sql.length() - 4; i >= 0; i--) {
            char c = sql.charAt(i); // a plain comparison first: a case-blind one at every character showed in profiles
            if ((c == 't' || c == 'T') && sql.regionMatches(true, i, "temp", 0, 4)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the statement drops some of the session's temporary tables and some regular tables at once. */
    boolean dropsMixed(String sql) {
        List<String> dropped = dropped(sql);
        return dropped.stream().anyMatch(this::isTemporary) && !dropped.stream().allMatch(this::isTemporary);
    }

    /** The tables a {@code DROP TABLE} drops (none for another statement). */
    private static List<String> dropped(String sql) {
        Matcher m = DROPPED.matcher(sql);
        if (!m.find()) {
            return List.of();
        }
        List<String> tables = new ArrayList<>();
        Matcher name = ONE_NAME.matcher(m.group(1));
        while (name.find()) {
            tables.add(normalized(name.group(1)));
        }
        return tables;
    }

    /** They were lost (their home left service). */
    void clear() {
        names.clear();
        changes.clear();
    }

    private boolean isTemporary(String table) {
        return table != null && names.contains(normalized(table));
    }

    private static Set<String> tables(SqlAnalysis a) {
        Set<String> tables = new HashSet<>(a.readTables());
        tables.addAll(a.writtenTables());
        DdlEffect ddl = a.ddl();
        if (ddl != null) {
            tables.add(ddl.table());
            if (ddl.newName() != null) {
                tables.add(ddl.newName());
            }
            if (ddl.sources() != null) {
                tables.addAll(ddl.sources());
            }
        }
        tables.remove(null);
        return tables;
    }

    /** Lower case, unquoted, without a schema that only says "temporary" (another schema: not one of ours). */
    private static String normalized(String name) {
        String[] parts = name.split("\\s*\\.\\s*", 2);
        if (parts.length == 2) {
            if (!TEMPORARY_SCHEMA.matcher(unquoted(parts[0])).matches()) {
                return unquoted(name).toLowerCase(Locale.ROOT);
            }
            name = parts[1];
        }
        return unquoted(name).toLowerCase(Locale.ROOT);
    }

    private static String unquoted(String name) {
        return name.replaceAll("[\"`\\[\\]]", "");
    }
}
