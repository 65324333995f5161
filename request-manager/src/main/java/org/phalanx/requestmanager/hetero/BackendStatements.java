package org.phalanx.requestmanager.hetero;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.StatementKind;
import org.phalanx.requestmanager.backend.Backend;

/**
 * What each backend runs for a statement, and how its results look to the client, in a virtual
 * database whose backends may be of different engines. When the engines differ, portable DDL is
 * written per engine ({@link PortableDdl}) and every other statement is translated from the
 * virtual database's declared dialect into the backend's ({@link SqlTranslator}); then the
 * backend's rewriting rules apply; results are seen through the canonical column types. A
 * single-engine virtual database runs its statements as written and pays nothing.
 */
public final class BackendStatements {
    /**
     * For measurement only ({@code -Dphalanx.measure.untranslated=true}, bench scenario 15): statements
     * go to every engine as written, so that what translation costs can be measured side by side.
     * Not for use: a mixed virtual database then runs only SQL every engine reads alike.
     */
    private static final boolean UNTRANSLATED = Boolean.getBoolean("phalanx.measure.untranslated");

    /** The virtual database's name: names qualified by it are qualified by each backend's own database. */
    private final String virtualDatabase;
    private final boolean heterogeneous;
    /** Null when every backend speaks the declared dialect, or none is declared: statements then go as written. */
    private final SqlTranslator translator;
    private final Engine declared;
    /** Translations by statement text; empty when the statement is not translated. */
    private final Map<String, Optional<Map<Engine, List<String>>>> translations = new ConcurrentHashMap<>();

    /**
     * @param virtualDatabase the virtual database's name, the catalog its clients see
     * @param declared  the SQL dialect applications write in (null: that of the backends, or none declared)
     * @param cacheSize statement texts whose translations are kept
     */
    public BackendStatements(String virtualDatabase, Collection<Backend> backends, Engine declared, int cacheSize) {
        this.virtualDatabase = virtualDatabase;
        this.declared = declared;
        Set<Engine> engines = backends.stream().map(Backend::dialect).collect(Collectors.toSet());
        this.heterogeneous = engines.size() > 1;
        boolean foreign = engines.stream().anyMatch(e -> e != declared && SqlTranslator.jooqDialect(e) != null);
        this.translator = declared != null && foreign && !UNTRANSLATED ? new SqlTranslator(declared, engines,
                DeclaredSchema.of(backends, declared), cacheSize) : null;
        if (translator != null) {
            // jOOQ loads its classes on first use, half a second or more: beside the start, so that
            // neither the start nor (usually) the first client's statement waits for it
            Thread warmUp = new Thread(translator::warmUp, "phalanx-translator-warm-up");
            warmUp.setDaemon(true);
            warmUp.start();
        }
    }

    /** Whether the backends are of more than one engine. */
    public boolean heterogeneous() {
        return heterogeneous;
    }

    /** The statements (one, or several for translated DDL) backend {@code b} runs for {@code sql}. */
    public List<String> forBackend(Backend b, String sql, boolean ddl) {
        if (heterogeneous && ddl) {
            List<String> translated = translation(sql).map(t -> t.get(b.dialect())).orElse(null);
            if (translated != null && !translated.isEmpty()) {
                List<String> out = new ArrayList<>(translated.size());
                for (String s : translated) {
                    out.add(b.rewrite(b.withOwnCatalog(s, virtualDatabase)));
                }
                return out;
            }
        }
        return List.of(forWrite(b, sql));
    }

    /**
     * The statement backend {@code b} runs for a read {@code sql}: refused (0A000) when b's engine
     * cannot run it — a read about the database product, unchecked since meant for the declared
     * dialect's backends, when none of those is enabled.
     */
    public String forRead(Backend b, String sql) throws SQLException {
        String translated = translator == null ? sql : translator.translate(sql, b.dialect());
        return b.rewrite(b.withOwnCatalog(translated, virtualDatabase));
    }

    /** The statement backend {@code b} runs for a write, checked ({@link #check}) before it was ordered. */
    private String forWrite(Backend b, String sql) {
        try {
            return forRead(b, sql);
        } catch (SQLException e) {
            // check() refused it before it was ordered; only a backend whose engine changed since could get here
            throw new IllegalStateException("statement not checked before it ran: " + e.getMessage(), e);
        }
    }

    /** Whether statements are translated: some backend does not speak the declared dialect. */
    public boolean translates() {
        return translator != null;
    }

    /**
     * Refuses (SQLState 0A000) a statement that the engine of some backend cannot run, before any
     * backend runs it: run on the others alone, it would make the replicas differ.
     */
    public void check(String sql, SqlAnalysis a) throws SQLException {
        if (translator != null && a.kind().isWrite() && a.engineDependent()) {
            throw new SQLException("a write that divides or does interval arithmetic cannot run on this virtual"
                    + " database: its engines (" + SqlTranslator.name(translator.declared()) + " declared) disagree on"
                    + " integer division, division by zero and date arithmetic, and its replicas would store"
                    + " different values; compute the value in the application, or in a read first",
                    SqlState.FEATURE_NOT_SUPPORTED.code());
        }
        boolean portableDdl = heterogeneous && a.kind() == StatementKind.DDL && translation(sql).isPresent();
        if (translator != null && !portableDdl) { // as forBackend will write it
            translator.check(sql);
        }
    }

    private Optional<Map<Engine, List<String>>> translation(String sql) {
        if (translations.size() > 1_000) {
            translations.clear(); // DDL texts are few; a flood of distinct ones is not worth keeping
        }
        return translations.computeIfAbsent(sql, s -> Optional.ofNullable(PortableDdl.translate(s)));
    }

    /**
     * The engine whose backends alone carry a session's parameters ({@code SET ...}), or null for
     * every backend: with statements translated, the declared dialect's — its parameters are that
     * engine's, which the others do not have (PostgreSQL's client_min_messages, MariaDB's sql_mode).
     */
    public Engine settingsOnlyOn() {
        return translator == null ? null : declared;
    }

    /**
     * The backends that answer metadata calls: those speaking the declared dialect when some are
     * among {@code candidates}, so that types, keys and indexes come in that dialect's terms.
     */
    public List<Backend> speakingDeclared(List<Backend> candidates) {
        List<Backend> speaking = candidates.stream().filter(b -> b.dialect() == declared).toList();
        return speaking.isEmpty() ? candidates : speaking;
    }

    /** A backend's rows as the client must see them: canonical types when the engines differ. */
    public ResultSet results(ResultSet rs, Backend b) throws SQLException {
        return heterogeneous ? CanonicalResultSet.wrap(rs, b.dialect()) : rs;
    }
}
