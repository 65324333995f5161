package org.phalanx.requestmanager.hetero;

import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.conf.ParamType;
import org.jooq.conf.ParseUnknownFunctions;
import org.jooq.conf.RenderKeywordCase;
import org.jooq.conf.RenderNameCase;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.analysis.SqlLexer;

/**
 * Statements written in the virtual database's declared SQL dialect, as each backend engine must
 * run them: jOOQ's parser reads the declared dialect and renders the others. A statement goes to
 * the declared dialect's engine untouched, and to the others as jOOQ renders it for them (always:
 * a text that happens to read the same in both dialects may still mean something else, as an
 * alias without AS that SQLite's UPDATE refuses).
 * What an engine cannot express ({@link DialectGaps}) is refused before any backend runs it.
 * Translations are kept per (statement, engine), so a statement seen before costs a lookup.
 */
public final class SqlTranslator {
    static {
        // jOOQ prints a banner and tips on first use; a server log is not the place
        System.setProperty("org.jooq.no-logo", "true");
        System.setProperty("org.jooq.no-tips", "true");
    }

    private final Engine declared;
    private final DeclaredSchema schema;
    private final Set<Engine> targets;
    private final int cacheSize;
    private final Map<String, Map<Engine, Translation>> cache = new ConcurrentHashMap<>();

    /**
     * @param declared  the dialect applications write in
     * @param targets   the engines of the backends, those the statements are rendered for
     * @param cacheSize statement texts whose translations are kept
     */
    public SqlTranslator(Engine declared, Set<Engine> targets, int cacheSize) {
        this(declared, targets, DeclaredSchema.of(List.of(), declared), cacheSize);
    }

    /** @param schema the declared dialect's default schema, which qualified names leave out on other engines */
    SqlTranslator(Engine declared, Set<Engine> targets, DeclaredSchema schema, int cacheSize) {
        this.declared = declared;
        this.schema = schema;
        this.targets = Set.copyOf(targets);
        this.cacheSize = cacheSize;
    }

    public Engine declared() {
        return declared;
    }

    /** The statement as engine {@code target} must run it; refused (0A000) when it cannot be expressed there. */
    public String translate(String sql, Engine target) throws SQLException {
        if (target == declared || jooqDialect(target) == null) {
            return sql;
        }
        Translation t = translations(sql).get(target);
        if (t == null) { // an engine that was not among the backends when the statement was first seen
            t = translate(sql, parse(sql), target);
        }
        return t.sqlOrThrow();
    }

    /**
     * Translates a statement of each kind once, so that jOOQ has loaded its classes; the cache keeps
     * nothing of it. Runs beside the virtual database's start: a failure here only means the first
     * statement pays for the loading.
     */
    void warmUp() {
        for (String sql : List.of("SELECT a FROM t WHERE b = ? ORDER BY a LIMIT 1", "UPDATE t SET a = a + ? WHERE b = ?",
                "INSERT INTO t (a, b) VALUES (?, ?)", "DELETE FROM t WHERE a = ?")) {
            Parsed parsed = parse(sql);
            for (Engine target : targets) {
                if (target != declared && jooqDialect(target) != null) {
                    translate(sql, parsed, target);
                }
            }
        }
    }

    /** Refuses a statement that some backend's engine cannot run, before any backend runs it. */
    public void check(String sql) throws SQLException {
        for (Translation t : translations(sql).values()) {
            t.sqlOrThrow();
        }
    }

    private Map<Engine, Translation> translations(String sql) {
        Map<Engine, Translation> known = cache.get(sql);
        if (known != null) {
            return known;
        }
        Map<Engine, Translation> made = new EnumMap<>(Engine.class);
        Parsed parsed = null;
        for (Engine target : targets) {
            if (target != declared && jooqDialect(target) != null) {
                parsed = parsed != null ? parsed : parse(sql);
                made.put(target, translate(sql, parsed, target));
            }
        }
        if (cache.size() >= cacheSize) {
            Iterator<String> any = cache.keySet().iterator(); // any one: texts seen once are the many
            if (any.hasNext()) {
                cache.remove(any.next());
            }
        }
        cache.put(sql, made);
        return made;
    }

    /**
     * The statement read in the declared dialect — its source, what of it jOOQ can carry
     * ({@link #mended}) —, each parameter bound to its number; or why it could not be read.
     */
    private record Parsed(String source, Query query, int parameters, String failure) {
    }

    private Parsed parse(String sql) {
        int markers = SqlLexer.placeholders(sql);
        Object[] bindings = new Object[markers];
        for (int k = 0; k < markers; k++) {
            bindings[k] = k + 1; // each parameter bound to its number, to see where the rendering puts it
        }
        try {
            String source = schema.unqualified(mended(sql));
            return new Parsed(source, context(declared).parser().parseQuery(source, bindings), markers, null);
        } catch (RuntimeException e) { // the parser's exception, or one of its own bugs on an odd statement
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return new Parsed(sql, null, 0, why.lines().findFirst().orElse(why));
        }
    }

    /** What of the statement jOOQ can carry to the other engines (the declared engine runs it as written). */
    private String mended(String sql) {
        String joined = declared == Engine.POSTGRESQL ? JoinedWrites.fromPostgresql(sql)
                : declared == Engine.MARIADB ? JoinedWrites.fromMariadb(sql) : null;
        if (joined != null) {
            return joined;
        }
        return declared == Engine.MARIADB ? DialectGaps.mariadbSource(sql) : sql;
    }

    private Translation translate(String sql, Parsed parsed, Engine target) {
        String emulated = target == Engine.SQLITE ? SqliteEmulations.emulate(schema.unqualified(sql)) : null;
        if (emulated != null) {
            return Translation.of(emulated);
        }
        if (parsed.failure() != null) {
            return Translation.refused(refusal("it cannot be read as " + name(declared) + " SQL (" + parsed.failure() + ")",
                    target));
        }
        String construct = DialectGaps.construct(parsed.source(), declared, target);
        if (construct != null) {
            return Translation.refused(refusal(construct, target));
        }
        DSLContext out = context(target);
        String rendered;
        List<Object> order;
        try {
            rendered = out.render(parsed.query());
            order = out.extractBindValues(parsed.query());
        } catch (RuntimeException e) {
            return Translation.refused(refusal("it cannot be rendered (" + e.getMessage() + ")", target));
        }
        construct = DialectGaps.inRendering(rendered, target);
        if (construct != null) {
            return Translation.refused(refusal(construct, target));
        }
        rendered = DialectGaps.adapt(rendered, target);
        String numbered = inOrder(order, parsed.parameters()) ? rendered : numbered(rendered, order, target);
        return numbered != null ? Translation.of(numbered)
                : Translation.refused(refusal("its parameters would have to be bound in another order", target));
    }

    private static boolean inOrder(List<Object> order, int parameters) {
        if (order.size() != parameters) {
            return false;
        }
        for (int k = 0; k < parameters; k++) {
            if (!Integer.valueOf(k + 1).equals(order.get(k))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The rendering with SQLite's numbered markers, {@code ?N}, where the translation moved the
     * parameters (OFFSET before FETCH becomes LIMIT before OFFSET); null for another engine, which
     * has none, or when some parameter did not come through as a marker.
     */
    private static String numbered(String rendered, List<Object> order, Engine target) {
        if (target != Engine.SQLITE) {
            return null;
        }
        StringBuilder out = new StringBuilder(rendered.length() + 2 * order.size());
        int next = 0;
        int i = 0;
        while (i < rendered.length()) {
            int skipped = SqlLexer.skipNonCode(rendered, i);
            if (skipped != i) {
                out.append(rendered, i, skipped);
                i = skipped;
                continue;
            }
            char c = rendered.charAt(i++);
            out.append(c);
            if (c == '?') {
                if (next == order.size() || !(order.get(next) instanceof Integer)) {
                    return null;
                }
                out.append(order.get(next++));
            }
        }
        return next == order.size() ? out.toString() : null;
    }

    /** Why a statement is refused, for the client. */
    private String refusal(String construct, Engine target) {
        return "cannot run on " + name(target) + " backends: " + construct + "; this virtual database speaks "
                + name(declared) + " and runs every statement on every engine among its backends, so it was refused"
                + " before any backend ran it";
    }

    static String name(Engine e) {
        switch (e) {
            case SQLITE:
                return "SQLite";
            case POSTGRESQL:
                return "PostgreSQL";
            case MARIADB:
                return "MariaDB";
            default:
                return e.name();
        }
    }

    /** jOOQ's dialect for an engine; null for one it does not know (statements then go as written). */
    static SQLDialect jooqDialect(Engine e) {
        switch (e) {
            case SQLITE:
                return SQLDialect.SQLITE;
            case POSTGRESQL:
                return SQLDialect.POSTGRES;
            case MARIADB:
                return SQLDialect.MARIADB;
            default:
                return null;
        }
    }

    private DSLContext context(Engine engine) {
        Settings settings = new Settings()
                .withParseDialect(jooqDialect(declared))
                .withParseUnknownFunctions(ParseUnknownFunctions.IGNORE) // an engine's own functions pass through
                .withRenderQuotedNames(RenderQuotedNames.EXPLICIT_DEFAULT_UNQUOTED) // names as written
                .withRenderNameCase(RenderNameCase.AS_IS)
                .withRenderKeywordCase(RenderKeywordCase.AS_IS)
                .withRenderGroupConcatMaxLenSessionVariable(false) // no SET @@group_concat_max_len before a query
                .withParamType(ParamType.INDEXED)
                .withRenderFormatted(false);
        return DSL.using(jooqDialect(engine), settings);
    }

    /** One engine's form of a statement, or why it has none. */
    private record Translation(String sql, String refusal) {
        static Translation of(String sql) {
            return new Translation(sql, null);
        }

        static Translation refused(String refusal) {
            return new Translation(null, refusal);
        }

        String sqlOrThrow() throws SQLException {
            if (refusal != null) {
                throw new SQLException(refusal, SqlState.FEATURE_NOT_SUPPORTED.code());
            }
            return sql;
        }
    }
}
