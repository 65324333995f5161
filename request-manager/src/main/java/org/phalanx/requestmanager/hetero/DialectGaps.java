package org.phalanx.requestmanager.hetero;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.analysis.SqlLexer;

/**
 * Where jOOQ's translation from one engine's SQL to another's falls short, and what is done about
 * it. jOOQ renders what a dialect lacks without complaint — it leaves out RETURNING for SQLite,
 * writes a sequence call SQLite cannot run, or marks a gap with "[unknown ...]" — so such
 * constructs are recognised here, in the statement as written or in the rendering, and refused
 * before the statement runs anywhere; a few are mended instead: before parsing (what of a MariaDB
 * statement the others can have) or in the rendering (what SQLite needs no clause for).
 */
final class DialectGaps {
    private static final Pattern SEQUENCE = Pattern.compile(
            "(?is).*(?:\\b(?:nextval|currval|setval|lastval)\\s*\\(|\\bnext\\s+value\\s+for\\b"
                    + "|\\b(?:create|alter|drop)\\s+sequence\\b).*");
    private static final Pattern RETURNING = Pattern.compile("(?is).*\\breturning\\b.*");
    /** A MariaDB user variable, {@code @name} (not {@code @@system}). */
    private static final Pattern USER_VARIABLE = Pattern.compile("(?s).*(?<![@\\w])@\\w.*");
    /** MariaDB table options after a CREATE TABLE's column list: storage, not data, so the other engines go without. */
    private static final Pattern TABLE_OPTIONS = Pattern.compile(
            "(?is)(\\s*create\\s+table\\s.*\\))\\s*(?:(?:engine|(?:default\\s+)?(?:charset|character\\s+set|collate)"
                    + "|auto_increment|row_format)\\s*=?\\s*\\w+[\\s,]*)+;?\\s*");
    /** MariaDB's DELETE naming the alias it deletes from, of one table. */
    private static final Pattern ALIASED_DELETE = Pattern.compile(
            "(?is)\\s*delete\\s+(\\w+)\\s+from\\s+([`\\w.]+)\\s+(?:as\\s+)?(\\w+)\\s+(where\\b.*)");
    /** Changing a table's constraints, which SQLite's ALTER TABLE cannot do. */
    private static final Pattern ALTER_CONSTRAINT = Pattern.compile(
            "(?is)\\s*alter\\s+table\\s.*\\b(?:add|drop)\\s+(?:constraint|foreign\\s+key|primary\\s+key|unique|check)\\b.*");
    /** PostgreSQL's row addresses (Hibernate joins a bulk update's table to itself on them). */
    private static final Pattern CTID = Pattern.compile("(?is).*\\bctid\\b.*");
    /** MariaDB's UPDATE of joined tables, which jOOQ leaves as it is for the others. */
    private static final Pattern JOINED_UPDATE = Pattern.compile(
            "(?is)\\s*update\\s+[`\"\\w.]+(?:\\s+(?:as\\s+)?(?!set\\b)\\w+)?\\s*(?:,|(?:inner\\s+|left\\s+|cross\\s+|straight_)?join\\b).*");
    /** DROP TABLE's CASCADE / RESTRICT, which SQLite does not know (it has no dependent objects to drop). */
    private static final Pattern DROP_CASCADE = Pattern.compile("(?is)(\\s*drop\\s+table\\s.*?)\\s+(?:cascade|restrict)\\s*;?\\s*");
    /** CREATE SEQUENCE without a word about caching. */
    private static final Pattern CACHELESS_SEQUENCE = Pattern.compile("(?is)\\s*create\\s+sequence\\s(?!.*\\bcache\\b).*");
    /** A gap jOOQ marks in its rendering. */
    private static final Pattern GAP = Pattern.compile("(?s).*\\[(?:unknown|not supported|no )[^]]*].*");
    /** SELECT ... FOR UPDATE / FOR SHARE and their options, at the statement's end as jOOQ renders them. */
    private static final Pattern ROW_LOCK = Pattern.compile(
            "(?i)\\s+for\\s+(?:update|share|no\\s+key\\s+update|key\\s+share)(?:\\s+of\\s+[\\w., ]+?)?"
                    + "(?:\\s+(?:nowait|skip\\s+locked|wait\\s+\\d+))?\\s*$");

    private DialectGaps() {
    }

    /** The construct of {@code sql} (in {@code declared}'s SQL) that {@code target} cannot express, or null. */
    static String construct(String sql, Engine declared, Engine target) {
        String code = codeOnly(sql);
        if (target == Engine.SQLITE && SEQUENCE.matcher(code).matches()) {
            return "sequences used other than CREATE/DROP SEQUENCE or a SELECT of the next value alone"
                    + " (SQLite has none; they are emulated by a table for those)";
        }
        if (target == Engine.SQLITE && ALTER_CONSTRAINT.matcher(code).matches()) {
            return "ALTER TABLE ... ADD/DROP CONSTRAINT other than adding a primary key or unique constraint"
                    + " (SQLite cannot change a table's constraints; declare foreign keys in CREATE TABLE)";
        }
        if (target == Engine.SQLITE && RETURNING.matcher(code).matches()) {
            return "RETURNING (use getGeneratedKeys(), or a SELECT after the write)";
        }
        if (declared == Engine.POSTGRESQL && target != Engine.POSTGRESQL && CTID.matcher(code).matches()) {
            return "row addresses (ctid) — as in Hibernate's bulk UPDATE/DELETE whose condition follows an"
                    + " association: write the condition with a subquery (where b.author.id in (select ...))";
        }
        if (declared == Engine.MARIADB && target != Engine.MARIADB && JOINED_UPDATE.matcher(code).matches()) {
            return "an UPDATE of joined tables — as in Hibernate's bulk UPDATE whose condition follows an"
                    + " association: write the condition with a subquery (where b.author.id in (select ...))";
        }
        if (declared == Engine.MARIADB && target != Engine.MARIADB && USER_VARIABLE.matcher(code).matches()) {
            return "user variables (@name)";
        }
        return null;
    }

    /**
     * What of a MariaDB statement the other engines can have, for jOOQ to translate: a CREATE TABLE
     * without its table options (ENGINE=InnoDB...), {@code DELETE a FROM t a WHERE ...} of one table
     * (Hibernate's bulk delete) as {@code DELETE FROM t AS a WHERE ...}.
     */
    static String mariadbSource(String sql) {
        Matcher m = TABLE_OPTIONS.matcher(sql);
        if (m.matches()) {
            return m.group(1);
        }
        m = ALIASED_DELETE.matcher(sql);
        if (m.matches() && m.group(1).equalsIgnoreCase(m.group(3))) {
            return "delete from " + m.group(2) + " as " + m.group(3) + " " + m.group(4);
        }
        return sql;
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
     * so FOR UPDATE / FOR SHARE are left out there; nor objects that depend on a table, so DROP
     * TABLE's CASCADE too. A MariaDB sequence is created NOCACHE unless the statement says otherwise.
     */
    static String adapt(String rendered, Engine target) {
        if (target == Engine.MARIADB) {
            // MariaDB caches 1000 values of a sequence unless told not to, and loses them when it
            // restarts: its next value would jump ahead of the other engines'
            return CACHELESS_SEQUENCE.matcher(rendered).matches() ? rendered + " nocache" : rendered;
        }
        if (target != Engine.SQLITE) {
            return rendered;
        }
        Matcher drop = DROP_CASCADE.matcher(rendered);
        return drop.matches() ? drop.group(1) : ROW_LOCK.matcher(rendered).replaceFirst("");
    }

    /** The statement with its string literals blanked out, so that words inside them are not taken for SQL. */
    private static String codeOnly(String sql) {
        if (sql.indexOf('\'') < 0) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        while (i < sql.length()) {
            int end = SqlLexer.skipNonCode(sql, i);
            if (end == i) {
                out.append(sql.charAt(i++));
            } else {
                boolean literal = sql.charAt(i) == '\'';
                out.append(literal ? "''" : sql.substring(i, end)); // a literal keeps its place, not its words
                i = end;
            }
        }
        return out.toString();
    }
}
