package org.phalanx.requestmanager.analysis;

import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Commit;
import net.sf.jsqlparser.statement.RollbackStatement;
import net.sf.jsqlparser.statement.SavepointStatement;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.UnsupportedStatement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.merge.Merge;
import net.sf.jsqlparser.statement.select.ForMode;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.upsert.Upsert;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * Classifies statements with JSqlParser and caches the result by SQL text, so a prepared
 * statement executed a million times is parsed once. A text the parser cannot read is treated
 * as a write that may touch every table, and counted.
 */
public final class SqlAnalyzer {
    private static final Set<String> DDL_WORDS = Set.of("create", "drop", "alter", "truncate", "rename", "comment");
    private static final Pattern UNPARSED_DDL_TABLE = Pattern.compile("(?is)\\s*(?:create\\s+(?:temporary\\s+)?table"
            + "(?:\\s+if\\s+not\\s+exists)?|alter\\s+table|drop\\s+table(?:\\s+if\\s+exists)?"
            + "|create\\s+(?:unique\\s+)?index\\s+\\S+\\s+on)\\s+([`\"\\w.]+)[\\s(]");
    /** Words by which a DDL statement reaches tables other than the one it names. */
    private static final List<String> REACHING_WORDS = List.of("inherits", "partition", "like", "trigger", "rule",
            "policy");
    /** A foreign key's parent: the engine locks it too, so the DDL does. */
    private static final Pattern REFERENCED = Pattern.compile("(?i)\\breferences\\s+([`\"\\w.]+)");
    /** A sequence's DDL: it reaches the sequence only (but with CASCADE, the defaults using it). */
    private static final Pattern SEQUENCE_DDL = Pattern.compile(
            "(?is)\\s*(?:create|alter|drop)\\s+sequence\\s+(?:if\\s+(?:not\\s+)?exists\\s+)?([`\"\\w.]+).*");
    /** Taking a sequence's next value (PostgreSQL nextval/setval, MariaDB NEXT VALUE FOR / NEXTVAL / SETVAL). */
    private static final Pattern SEQUENCE_CALL = Pattern.compile(
            "(?i)\\b(?:nextval|setval)\\s*\\(\\s*'?([`\"\\w.]+?)'?(?:::\\w+)?\\s*[,)]|\\bnext\\s+value\\s+for\\s+([`\"\\w.]+)");

    /** One shared daemon pool for JSqlParser's parse timeout, instead of a thread per parse. */
    private static final ExecutorService PARSE_POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "phalanx-sql-parser");
        t.setDaemon(true);
        return t;
    });

    /** Lock-free on the hit path: every request of every client looks up here. */
    private final Map<String, SqlAnalysis> cache = new ConcurrentHashMap<>();
    private final int cacheSize;
    private final LongAdder unparsed = new LongAdder();

    public SqlAnalyzer(int cacheSize) {
        this.cacheSize = cacheSize;
    }

    /** Statements the parser could not read since start. */
    public long unparsedCount() {
        return unparsed.sum();
    }

    /** Whether a locking read asks not to wait for rows another transaction holds ({@code FOR UPDATE NOWAIT}). */
    public static boolean asksNoWait(String sql) {
        // every write asks: no allocation unless the word is there
        return SqlLexer.containsIgnoreCase(sql, "nowait") && SqlLexer.firstWord(sql).equals("select")
                && SqlLexer.containsWord(sql, "nowait");
    }

    public SqlAnalysis analyze(String sql) {
        SqlAnalysis cached = cache.get(sql);
        if (cached != null) {
            return cached;
        }
        SqlAnalysis analysis = analyzeUncached(sql);
        if (!analysis.kind().isWrite()) {
            analysis = several(sql, analysis);
        }
        if (SqlLexer.engineDependent(sql)) {
            analysis = analysis.asEngineDependent();
        }
        if (cache.size() >= cacheSize) {
            // full (applications that inline literals): drop an arbitrary entry rather than track recency
            Iterator<String> any = cache.keySet().iterator();
            if (any.hasNext()) {
                cache.remove(any.next());
            }
        }
        cache.put(sql, analysis);
        return analysis;
    }

    /**
     * A text of several statements whose first is not a write ({@code SELECT 1; INSERT ...}) takes
     * its kind from them all: reads only, a read (session settings only, session settings); any
     * write among reads, a write the analysis does not bound (run on every backend, in the total
     * order); a statement that demarcates a transaction or sets session parameters among others,
     * refused. Else the parser would have read the first statement alone, and the rest would have
     * run on one backend.
     */
    private SqlAnalysis several(String sql, SqlAnalysis first) {
        List<String> statements = SqlLexer.statements(sql);
        if (statements.isEmpty()) {
            return first;
        }
        boolean writes = false;
        for (String statement : statements) {
            StatementKind kind = analyzeUncached(statement).kind();
            if (kind == first.kind() && (kind == StatementKind.READ || kind == StatementKind.SESSION)) {
                continue; // SET a = 1; SET b = 2 stays the session's
            }
            if (first.kind() != StatementKind.READ || !kind.isWrite()) {
                return new SqlAnalysis(StatementKind.SEVERAL_WITH_CONTROL, Set.of(), Set.of(), false, true, false);
            }
            writes = true;
        }
        return !writes ? first : new SqlAnalysis(StatementKind.WRITE, Set.of(), Set.of(), true, false,
                MacroRewriter.containsMacro(sql));
    }

    private SqlAnalysis analyzeUncached(String sql) {
        boolean macros = MacroRewriter.containsMacro(sql);
        String first = SqlLexer.firstWord(sql);
        // Transaction demarcation is decided on the first word: dialects spell it many ways.
        switch (first) {
            case "begin":
                if (SqlLexer.containsWord(sql, "immediate") || SqlLexer.containsWord(sql, "exclusive")) {
                    return new SqlAnalysis(StatementKind.BEGIN_IMMEDIATE, Set.of(), Set.of(), true, true, false);
                }
                return new SqlAnalysis(StatementKind.BEGIN, Set.of(), Set.of(), false, true, false);
            case "start":
                return new SqlAnalysis(StatementKind.BEGIN, Set.of(), Set.of(), false, true, false);
            case "commit":
            case "end":
                return new SqlAnalysis(StatementKind.COMMIT, Set.of(), Set.of(), false, true, false);
            case "rollback":
                if (!SqlLexer.containsWord(sql, "to")) {
                    return new SqlAnalysis(StatementKind.ROLLBACK, Set.of(), Set.of(), false, true, false);
                }
                return new SqlAnalysis(StatementKind.SAVEPOINT, Set.of(), Set.of(), false, true, false);
            case "savepoint":
            case "release":
                return new SqlAnalysis(StatementKind.SAVEPOINT, Set.of(), Set.of(), false, true, false);
            case "set":
            case "reset":
            case "pragma":
                if (SessionCommand.parse(sql) != null) {
                    return new SqlAnalysis(StatementKind.SESSION, Set.of(), Set.of(), false, true, false);
                }
                break;
            case "show":
                // SHOW search_path, SHOW VARIABLES: the session's parameters, on any of its connections
                return new SqlAnalysis(StatementKind.READ, Set.of(), Set.of(), false, true, false);
            default:
                break;
        }
        boolean ddl = DDL_WORDS.contains(first);
        Statement statement;
        try {
            statement = CCJSqlParserUtil.parse(asParsed(sql), PARSE_POOL, parser -> parser.withTimeOut(2000));
        } catch (JSQLParserException | RuntimeException e) {
            // DDL the parser cannot read still runs (everywhere): it is not counted as unparsed SQL
            return ddl ? ddlAnalysis(sql, null) : unparsed(macros);
        }
        if (statement == null || statement instanceof UnsupportedStatement) {
            return ddl ? ddlAnalysis(sql, null) : unparsed(macros);
        }
        try {
            if (ddl) {
                // the effect tells partial replication where the table lives now
                return ddlAnalysis(sql, DdlEffects.of(statement));
            }
            return classify(statement, sql, macros);
        } catch (RuntimeException e) {
            return unparsed(macros);
        }
    }

    /**
     * A DDL statement locks the tables it creates, changes or drops (and reads the sources of a
     * CREATE ... AS SELECT or a view), so it does not wait for transactions on other tables, as
     * on one database; or everything, where it may reach other tables: a foreign key (the parent
     * is locked by the engine), inheritance or partitions, several tables at once, and any
     * statement whose effect we do not follow (functions, triggers, sequences...). A DROP or
     * TRUNCATE ... CASCADE reaches the tables whose foreign keys point to it: with key-level
     * conflicts, the write stage adds them, as for any table-level write (its relatives).
     */
    private static SqlAnalysis ddlAnalysis(String sql, DdlEffect effect) {
        SqlAnalysis a = ddlAnalysisOf(sql, effect);
        // CREATE TABLE ... AS SELECT now(): the rows it stores are data, their clock values chosen once
        return selectOfCreateTableAs(sql) >= 0 && MacroRewriter.containsMacro(sql) ? a.withMacros() : a;
    }

    private static final Pattern CREATE_TABLE = Pattern.compile("(?is)\\s*create\\s+(?:or\\s+replace\\s+)?"
            + "(?:(?:global|local)\\s+)?(?:temp(?:orary)?\\s+|unlogged\\s+)?table\\b");
    private static final Pattern SELECT_WORD = Pattern.compile("(?i)\\bselect\\b");

    /**
     * Where the query of a {@code CREATE TABLE ... [AS] SELECT} starts, or -1 for other statements
     * (and for one with a column {@code DEFAULT}, whose clock must stay a clock).
     */
    public static int selectOfCreateTableAs(String sql) {
        if (!SqlLexer.firstWord(sql).equals("create") || !CREATE_TABLE.matcher(sql).lookingAt()
                || SqlLexer.containsWord(sql, "default")) {
            return -1;
        }
        Matcher select = SELECT_WORD.matcher(sql);
        return select.find() ? select.start() : -1;
    }

    private static SqlAnalysis ddlAnalysisOf(String sql, DdlEffect effect) {
        Matcher sequence = SEQUENCE_DDL.matcher(sql);
        if (effect == null && sequence.matches() && !SqlLexer.containsWord(sql, "cascade")) {
            return new SqlAnalysis(StatementKind.DDL, Set.of(), Set.of(normalize(sequence.group(1))), false, true, false);
        }
        String table = effect != null ? effect.table() : tableOfUnparsedDdl(sql);
        String first = SqlLexer.firstWord(sql);
        boolean reachesOthers = table == null || sql.indexOf(',') >= 0 // DROP TABLE a, b; TRUNCATE a, b
                && (first.equals("drop") || first.equals("truncate"));
        for (String word : REACHING_WORDS) {
            reachesOthers |= SqlLexer.containsWord(sql, word);
        }
        if (reachesOthers) {
            return new SqlAnalysis(StatementKind.DDL, Set.of(), Set.of(), true, true, false, effect);
        }
        Set<String> written = new TreeSet<>();
        written.add(table);
        if (effect != null && effect.newName() != null) {
            written.add(effect.newName());
        }
        Matcher parent = REFERENCED.matcher(sql);
        while (parent.find()) {
            written.add(normalize(parent.group(1)));
        }
        if (effect == null) {
            return new SqlAnalysis(StatementKind.DDL, Set.of(), Set.copyOf(written), false, true, false, null);
        }
        Set<String> read = new TreeSet<>(effect.sources());
        read.removeAll(written);
        return new SqlAnalysis(StatementKind.DDL, Set.copyOf(read), Set.copyOf(written), false, true, false, effect);
    }

    /** The sequences whose next value the statement takes (nextval, setval, NEXT VALUE FOR). */
    private static Set<String> sequencesAdvanced(String sql) {
        Set<String> names = new TreeSet<>();
        Matcher m = SEQUENCE_CALL.matcher(sql);
        while (m.find()) {
            names.add(normalize(m.group(1) != null ? m.group(1) : m.group(2)));
        }
        return names;
    }

    /**
     * The table of a CREATE TABLE, CREATE INDEX ... ON, ALTER TABLE or DROP TABLE the parser could
     * not read (a dialect's clause), named right after its keywords; null for anything else.
     */
    private static String tableOfUnparsedDdl(String sql) {
        Matcher m = UNPARSED_DDL_TABLE.matcher(sql);
        return m.lookingAt() ? normalize(m.group(1)) : null;
    }

    /** MariaDB's {@code LOCK IN SHARE MODE}, which the parser does not read, at a query's end. */
    private static final Pattern LOCK_IN_SHARE_MODE = Pattern.compile(
            "(?is)\\block\\s+in\\s+share\\s+mode(\\s+(?:nowait|wait\\s+\\d+))?\\s*;?\\s*$");

    /**
     * The text the parser is given: {@code sql}, with MariaDB's {@code LOCK IN SHARE MODE} read as
     * the {@code FOR SHARE} it means (unread, the query counted as a write of every table).
     */
    private static String asParsed(String sql) {
        if (!SqlLexer.containsIgnoreCase(sql, "share") || !SqlLexer.firstWord(sql).equals("select")) {
            return sql;
        }
        Matcher m = LOCK_IN_SHARE_MODE.matcher(sql);
        return m.find() ? sql.substring(0, m.start()) + "FOR SHARE" + (m.group(1) == null ? "" : m.group(1)) : sql;
    }

    private SqlAnalysis unparsed(boolean macros) {
        unparsed.increment();
        return new SqlAnalysis(StatementKind.WRITE, Set.of(), Set.of(), true, false, macros);
    }

    private static SqlAnalysis classify(Statement statement, String sql, boolean macros) {
        if (statement instanceof Commit) {
            return new SqlAnalysis(StatementKind.COMMIT, Set.of(), Set.of(), false, true, false);
        }
        if (statement instanceof RollbackStatement) {
            return new SqlAnalysis(StatementKind.ROLLBACK, Set.of(), Set.of(), false, true, false);
        }
        if (statement instanceof SavepointStatement) {
            return new SqlAnalysis(StatementKind.SAVEPOINT, Set.of(), Set.of(), false, true, false);
        }
        Set<String> all = tables(statement);
        if (statement instanceof Select select) {
            boolean locking = select.getForMode() != null;
            PlainSelect plain = select instanceof PlainSelect p ? p : null;
            boolean into = plain != null && plain.getIntoTables() != null && !plain.getIntoTables().isEmpty();
            // WITH d AS (DELETE ... RETURNING *) SELECT ...: a write dressed as a read
            boolean modifyingWith = select.getWithItemsList() != null && !select.getWithItemsList().isEmpty()
                    && (SqlLexer.containsWord(sql, "delete") || SqlLexer.containsWord(sql, "insert")
                    || SqlLexer.containsWord(sql, "update"));
            if (modifyingWith) {
                return new SqlAnalysis(StatementKind.WRITE, all, all, true, true, macros);
            }
            Set<String> sequences = sequencesAdvanced(sql);
            if (!sequences.isEmpty()) {
                // a sequence advances on every backend, in the total order, so the replicas' counters stay alike
                return new SqlAnalysis(StatementKind.WRITE, all, sequences, false, true, macros);
            }
            if (!locking && !into) {
                return new SqlAnalysis(StatementKind.READ, all, Set.of(), false, true, macros)
                        .withFootprint(Footprints.read(statement));
            }
            // SELECT ... FOR UPDATE takes row locks and SELECT INTO creates data: both are writes. A
            // locking read's footprint names the rows it locks (key-level conflicts); it changes nothing.
            SqlAnalysis write = new SqlAnalysis(StatementKind.WRITE, all, all, false, true, macros);
            if (into) {
                return write;
            }
            write = write.withFootprint(Footprints.read(statement));
            ForMode mode = select.getForMode();
            return mode == ForMode.SHARE || mode == ForMode.KEY_SHARE ? write.withSharedLocks() : write;
        }
        Table target = null;
        if (statement instanceof Insert insert) {
            target = insert.getTable();
        } else if (statement instanceof Update update) {
            target = update.getTable();
            if (update.getJoins() != null && !update.getJoins().isEmpty()
                    || update.getStartJoins() != null && !update.getStartJoins().isEmpty()) {
                // UPDATE a JOIN b SET b.x = ...: any of the joined tables may change
                return new SqlAnalysis(StatementKind.WRITE, all, all, false, true, macros)
                        .withFootprint(Footprints.write(statement));
            }
        } else if (statement instanceof Delete delete) {
            target = delete.getTable();
            if (delete.getTables() != null && !delete.getTables().isEmpty()) {
                // multi-table DELETE: we do not know which of the named tables lose rows
                return new SqlAnalysis(StatementKind.WRITE, all, all, false, true, macros);
            }
        } else if (statement instanceof Merge merge) {
            target = merge.getTable();
        } else if (statement instanceof Upsert upsert) {
            target = upsert.getTable();
        }
        if (target == null) {
            // SET, EXPLAIN, vendor statements...: run everywhere in order, like a write.
            return new SqlAnalysis(StatementKind.WRITE, all, Set.of(), true, true, macros);
        }
        Set<String> written = Set.of(normalize(target.getFullyQualifiedName()));
        Set<String> read = new TreeSet<>(all);
        read.removeAll(written);
        return new SqlAnalysis(StatementKind.WRITE, Set.copyOf(read), written, false, true, macros)
                .withFootprint(Footprints.write(statement));
    }

    private static Set<String> tables(Statement statement) {
        Set<String> names = new TreeSet<>();
        for (String name : new TablesNamesFinder<>().getTables(statement)) {
            names.add(normalize(name));
        }
        return Set.copyOf(names);
    }

    /**
     * A table named in an analysis (normalised) without its schema or database qualifier: backends
     * name the same table with or without one ({@code public.t}, {@code vdb.t}, {@code t}).
     */
    public static String tableKey(String table) {
        String t = table.toLowerCase(Locale.ROOT);
        int dot = t.lastIndexOf('.');
        return dot >= 0 ? t.substring(dot + 1) : t;
    }

    /** Table names compare case-insensitively and without quotes. */
    public static String normalize(String name) {
        return name.replace("\"", "").replace("`", "").replace("[", "").replace("]", "").toLowerCase(Locale.ROOT);
    }
}
