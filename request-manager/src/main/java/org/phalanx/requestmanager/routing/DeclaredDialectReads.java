package org.phalanx.requestmanager.routing;

import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.backend.Backend;

/**
 * In a virtual database whose backends run several engines, reads the other engines would answer
 * differently are served by backends speaking the declared dialect, which answer them as the
 * database the application believes it talks to: reads about the database product rather than
 * the application's data — naming no table ({@code SELECT version()}, {@code SHOW search_path},
 * {@code SELECT current_schema()}) or only the engine's own catalogs ({@code pg_catalog},
 * {@code information_schema}) — and reads whose result depends on the engine (a division,
 * interval arithmetic: {@link SqlAnalysis#engineDependent()}). Other reads, and every write, are
 * routed as {@code delegate} routes them.
 */
public final class DeclaredDialectReads implements Routing {
    private static final Pattern CATALOG = Pattern.compile(
            "(?:pg_catalog|information_schema|mysql|performance_schema|sys)\\..*|pg_.*|sqlite_.*");

    private final Routing delegate;
    private final Engine declared;

    public DeclaredDialectReads(Routing delegate, Engine declared) {
        this.delegate = delegate;
        this.declared = declared;
    }

    /**
     * Whether the read is for the declared dialect's engine to answer: it asks about the database
     * product (its version, settings, catalogs), not the data, or its result depends on the engine.
     */
    public static boolean forTheDeclaredEngine(SqlAnalysis a) {
        return a.engineDependent() || !a.allTables()
                && a.readTables().stream().allMatch(t -> CATALOG.matcher(t.toLowerCase(Locale.ROOT)).matches());
    }

    @Override
    public ReadRoute read(SqlAnalysis analysis, List<Backend> enabled) throws SQLException {
        ReadRoute route = delegate.read(analysis, enabled);
        if (!forTheDeclaredEngine(analysis)) {
            return route;
        }
        List<Backend> speaking = route.candidates().stream().filter(b -> b.dialect() == declared).toList();
        // the engines answer such reads each their own way: one answer differing from another's is no divergence
        return speaking.isEmpty() ? route : new ReadRoute(speaking, false);
    }

    @Override
    public List<Backend> writeTargets(SqlAnalysis analysis, List<Backend> enabled) throws SQLException {
        return delegate.writeTargets(analysis, enabled);
    }

    @Override
    public Runnable applied(Backend backend, SqlAnalysis analysis) {
        return delegate.applied(backend, analysis);
    }
}
