package org.phalanx.requestmanager.session;

import java.util.HashSet;
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
    /** {@code CREATE [GLOBAL|LOCAL] TEMP[ORARY] TABLE [IF NOT EXISTS] t}, PostgreSQL's {@code SELECT ... INTO TEMP [TABLE] t}. */
    private static final Pattern CREATED = Pattern.compile(
            "(?is)^(?:\\s|--[^\\n]*\\n|/\\*.*?\\*/)*(?:create\\s+(?:(?:global|local)\\s+)?temp(?:orary)?\\s+table\\s+"
                    + "(?:if\\s+not\\s+exists\\s+)?" + NAME + "|select\\b.*?\\binto\\s+(?:temp|temporary)\\s+(?:table\\s+)?" + NAME + ")");
    /** {@code DROP [TEMPORARY] TABLE [IF EXISTS] t} (MariaDB's TEMPORARY form is beyond the parser). */
    private static final Pattern DROPPED = Pattern.compile(
            "(?is)^(?:\\s|--[^\\n]*\\n|/\\*.*?\\*/)*drop\\s+(?:temporary\\s+)?table\\s+(?:if\\s+exists\\s+)?" + NAME + "\\s*;?\\s*$");
    /** Schemas that name where temporary tables live: PostgreSQL's {@code pg_temp[_n]}, SQLite's {@code temp}. */
    private static final Pattern TEMPORARY_SCHEMA = Pattern.compile("(?i)pg_temp(?:_\\d+)?|temp");

    private final Set<String> names = new HashSet<>();

    /** The table a statement creates as temporary, or null. */
    static String created(String sql) {
        if (!mentionsTemp(sql)) {
            return null; // nearly every statement: no pattern matching on the way of each read
        }
        Matcher m = CREATED.matcher(sql);
        if (!m.find()) {
            return null;
        }
        return normalized(m.group(1) != null ? m.group(1) : m.group(2));
    }

    boolean isEmpty() {
        return names.isEmpty();
    }

    /** Whether the statement names one of the session's temporary tables. */
    boolean touches(SqlAnalysis a, String sql) {
        if (names.isEmpty()) {
            return false;
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
        if (isTemporary(dropped(sql))) {
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

    /** After the statement ran on the home: the names it created, dropped or renamed. */
    void ran(SqlAnalysis a, String sql, String created) {
        if (created != null) {
            names.add(created);
        }
        String dropped = dropped(sql);
        if (dropped != null) {
            names.remove(dropped);
            return;
        }
        DdlEffect ddl = a.ddl();
        if (ddl == null || !isTemporary(ddl.table())) {
            return;
        }
        if (ddl.type() == DdlEffect.Type.RENAME && ddl.newName() != null) {
            names.remove(normalized(ddl.table()));
            names.add(normalized(ddl.newName()));
        }
    }

    private static boolean mentionsTemp(String sql) {
        for (int i = sql.length() - 4; i >= 0; i--) {
            char c = sql.charAt(i); // a plain comparison first: a case-blind one at every character showed in profiles
            if ((c == 't' || c == 'T') && sql.regionMatches(true, i, "temp", 0, 4)) {
                return true;
            }
        }
        return false;
    }

    private static String dropped(String sql) {
        Matcher m = DROPPED.matcher(sql);
        return m.find() ? normalized(m.group(1)) : null;
    }

    /** They were lost (their home left service). */
    void clear() {
        names.clear();
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
