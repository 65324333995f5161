package org.phalanx.requestmanager.hetero;

import java.util.Collection;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.analysis.SqlLexer;
import org.phalanx.requestmanager.backend.Backend;

/**
 * The schema an application of the declared dialect names its tables in when it qualifies them —
 * PostgreSQL's {@code public}, the MariaDB backend's database (Flyway writes
 * {@code "public"."flyway_schema_history"}) — which the other engines do not have: there the
 * qualifier goes, since their tables live in their own default schema.
 */
final class DeclaredSchema {
    private final Set<String> names;

    private DeclaredSchema(Set<String> names) {
        this.names = names;
    }

    /** The default schemas of the backends speaking {@code declared}'s SQL. */
    static DeclaredSchema of(Collection<Backend> backends, Engine declared) {
        Set<String> names = new TreeSet<>();
        if (declared == Engine.POSTGRESQL) {
            names.add("public");
        }
        for (Backend b : backends) {
            if (declared == Engine.MARIADB && b.dialect() == Engine.MARIADB) {
                String database = database(b.config().url());
                if (database != null) {
                    names.add(database.toLowerCase(Locale.ROOT));
                }
            }
        }
        return new DeclaredSchema(Set.copyOf(names));
    }

    /** The database a {@code jdbc:mariadb://host:port/database?...} URL names, or null. */
    static String database(String url) {
        int hosts = url.indexOf("//");
        int slash = hosts < 0 ? -1 : url.indexOf('/', hosts + 2);
        if (slash < 0) {
            return null;
        }
        int end = url.length();
        for (char c : new char[] {'?', ';'}) {
            int i = url.indexOf(c, slash);
            end = i < 0 ? end : Math.min(end, i);
        }
        String name = url.substring(slash + 1, end);
        return name.isEmpty() ? null : name;
    }

    /** {@code sql} without the declared schema qualifying its names (literals and comments untouched). */
    String unqualified(String sql) {
        if (names.isEmpty()) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            int end = SqlLexer.skipNonCode(sql, i); // past a literal, a quoted name or a comment
            boolean quotedName = end != i && (c == '"' || c == '`');
            if (end == i) {
                end = i + 1;
                if (Character.isLetter(c) || c == '_') {
                    while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_')) {
                        end++;
                    }
                }
            }
            String word = sql.substring(i, end);
            String name = quotedName ? word.substring(1, word.length() - 1) : word;
            boolean isName = quotedName || Character.isLetter(c) || c == '_';
            if (isName && end < sql.length() && sql.charAt(end) == '.' && (i == 0 || sql.charAt(i - 1) != '.')
                    && names.contains(name.toLowerCase(Locale.ROOT))) {
                i = end + 1; // the schema and its dot go
            } else {
                out.append(word);
                i = end;
            }
        }
        return out.toString();
    }
}
