package org.phalanx.requestmanager.hetero;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.engine.Engine;

/**
 * What each backend runs for a statement, and how its results look to the client, in a virtual
 * database whose backends may be of different engines. Portable DDL is translated per engine
 * (only when the engines differ: a single-engine virtual database runs its DDL as written), then
 * the backend's rewriting rules apply; results of a mixed virtual database are seen through the
 * canonical column types. A single-engine virtual database without rules pays nothing.
 */
public final class BackendStatements {
    private final boolean heterogeneous;
    /** Translations by statement text; empty when the statement is not translated. */
    private final Map<String, Optional<Map<Engine, List<String>>>> translations = new ConcurrentHashMap<>();

    public BackendStatements(Collection<Backend> backends) {
        this.heterogeneous = backends.stream().map(Backend::dialect).distinct().count() > 1;
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
                    out.add(b.rewrite(s));
                }
                return out;
            }
        }
        return List.of(b.rewrite(sql));
    }

    private Optional<Map<Engine, List<String>>> translation(String sql) {
        if (translations.size() > 1_000) {
            translations.clear(); // DDL texts are few; a flood of distinct ones is not worth keeping
        }
        return translations.computeIfAbsent(sql, s -> Optional.ofNullable(PortableDdl.translate(s)));
    }

    /** A backend's rows as the client must see them: canonical types when the engines differ. */
    public ResultSet results(ResultSet rs, Backend b) throws SQLException {
        return heterogeneous ? CanonicalResultSet.wrap(rs, b.dialect()) : rs;
    }
}
