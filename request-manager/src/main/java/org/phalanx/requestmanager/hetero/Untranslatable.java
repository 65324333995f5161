package org.phalanx.requestmanager.hetero;

import java.util.regex.Pattern;
import org.phalanx.engine.Engine;

/**
 * What the translator cannot carry from one engine's SQL to another's, found before a statement
 * runs anywhere. jOOQ renders what a dialect lacks without complaint — it leaves out RETURNING for
 * SQLite, writes a sequence call SQLite cannot run, or marks a gap with "[unknown ...]" — so the
 * constructs are recognised here: in the statement as written, or in the rendering.
 */
final class Untranslatable {
    private static final Pattern SEQUENCE = Pattern.compile(
            "(?is).*(?:\\b(?:nextval|currval|setval|lastval)\\s*\\(|\\bnext\\s+value\\s+for\\b"
                    + "|\\b(?:create|alter|drop)\\s+sequence\\b).*");
    private static final Pattern RETURNING = Pattern.compile("(?is).*\\breturning\\b.*");
    /** A MariaDB user variable, {@code @name} (not {@code @@system}). */
    private static final Pattern USER_VARIABLE = Pattern.compile("(?s).*(?<![@\\w])@\\w.*");
    /** MariaDB table options after a CREATE TABLE's column list. */
    private static final Pattern TABLE_OPTIONS = Pattern.compile(
            "(?is)\\s*create\\s.*\\)\\s*(?:engine|(?:default\\s+)?(?:charset|character\\s+set|collate)|auto_increment"
                    + "|row_format)\\b.*");
    /** A gap jOOQ marks in its rendering. */
    private static final Pattern GAP = Pattern.compile("(?s).*\\[(?:unknown|not supported|no )[^]]*].*");
    /** SELECT ... FOR UPDATE / FOR SHARE and their options, at the statement's end as jOOQ renders them. */
    private static final Pattern ROW_LOCK = Pattern.compile(
            "(?i)\\s+for\\s+(?:update|share|no\\s+key\\s+update|key\\s+share)(?:\\s+of\\s+[\\w., ]+?)?"
                    + "(?:\\s+(?:nowait|skip\\s+locked|wait\\s+\\d+))?\\s*$");

    private Untranslatable() {
    }

    /** The construct of {@code sql} (in {@code declared}'s SQL) that {@code target} cannot express, or null. */
    static String construct(String sql, Engine declared, Engine target) {
        String code = codeOnly(sql);
        if (target == Engine.SQLITE && SEQUENCE.matcher(code).matches()) {
            return "sequences (SQLite has none; use an IDENTITY column, whose keys the controller chooses)";
        }
        if (target == Engine.SQLITE && RETURNING.matcher(code).matches()) {
            return "RETURNING (use getGeneratedKeys(), or a SELECT after the write)";
        }
        if (declared == Engine.MARIADB && target != Engine.MARIADB && USER_VARIABLE.matcher(code).matches()) {
            return "user variables (@name)";
        }
        if (declared == Engine.MARIADB && target != Engine.MARIADB && TABLE_OPTIONS.matcher(code).matches()) {
            return "table options (ENGINE, CHARSET, COLLATE... after the column list)";
        }
        return null;
    }

    /** The gap jOOQ left in its rendering for {@code target}, or null. */
    static String inRendering(String rendered, Engine target) {
        if (rendered.isBlank()) {
            return "a statement that has no equivalent there";
        }
        if (GAP.matcher(codeOnly(rendered)).matches()) {
            return "a construct jOOQ cannot write there: " + rendered;
        }
        return null;
    }

    /**
     * The rendering as the engine runs it: SQLite has no row locks, and needs none — its
     * transactions are serializable and the scheduler orders writing ones one at a time on it —
     * so FOR UPDATE / FOR SHARE are left out there.
     */
    static String adapt(String rendered, Engine target) {
        return target == Engine.SQLITE ? ROW_LOCK.matcher(rendered).replaceFirst("") : rendered;
    }

    /** The statement with its string literals blanked out, so that words inside them are not taken for SQL. */
    private static String codeOnly(String sql) {
        if (sql.indexOf('\'') < 0) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length());
        boolean inLiteral = false;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '\'') {
                inLiteral = !inLiteral; // a doubled quote toggles twice
                out.append(c);
            } else {
                out.append(inLiteral ? ' ' : c);
            }
        }
        return out.toString();
    }
}
