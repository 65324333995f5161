package org.phalanx.requestmanager.routing;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.analysis.DdlEffect;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.backend.Backend;

/**
 * RAIDb-0 and RAIDb-2: tables live on some backends only. A read goes to a backend holding
 * every table it names; a write to every backend holding the table it writes; CREATE TABLE
 * follows the placement rules. What cannot be served by one backend is refused with a message
 * saying where each table lives, never answered partially.
 */
public final class PartialReplication implements Routing {
    private final SchemaView schema;
    private final Placement placement;

    public PartialReplication(SchemaView schema, Placement placement) {
        this.schema = schema;
        this.placement = placement;
    }

    @Override
    public ReadRoute read(SqlAnalysis a, List<Backend> enabled) throws SQLException {
        if (a.readTables().isEmpty()) {
            return new ReadRoute(enabled, true);
        }
        Set<String> known = new LinkedHashSet<>();
        for (String t : a.readTables()) {
            if (schema.known(t)) {
                known.add(t);
            }
        }
        List<Backend> candidates = holdingAll(known, enabled);
        if (candidates.isEmpty()) {
            throw notServable(a.readTables(), enabled, "read");
        }
        // names the schema does not know (system catalogs, tables created behind our back): the backend decides
        return new ReadRoute(candidates, known.size() == a.readTables().size());
    }

    @Override
    public List<Backend> writeTargets(SqlAnalysis a, List<Backend> enabled) throws SQLException {
        DdlEffect ddl = a.ddl();
        if (ddl != null) {
            return ddlTargets(ddl, enabled);
        }
        if (a.allTables() || a.writtenTables().isEmpty()) {
            return enabled; // not understood, or no table named: everywhere, conservatively
        }
        List<Backend> targets = new ArrayList<>();
        for (String t : a.writtenTables()) {
            for (Backend b : schema.holders(t, enabled)) {
                if (!targets.contains(b)) {
                    targets.add(b);
                }
            }
        }
        if (targets.isEmpty()) {
            for (String t : a.writtenTables()) {
                if (!schema.known(t)) {
                    return enabled; // unknown table: let every backend report it (or find it)
                }
            }
            throw notServable(a.writtenTables(), enabled, "write");
        }
        // INSERT ... SELECT and friends: every backend applying the write must hold what it reads
        for (String t : a.readTables()) {
            if (!schema.known(t)) {
                continue;
            }
            for (Backend b : targets) {
                if (!schema.holds(b, t)) {
                    Set<String> all = new LinkedHashSet<>(a.writtenTables());
                    all.addAll(a.readTables());
                    throw notServable(all, enabled, "write");
                }
            }
        }
        return targets;
    }

    private List<Backend> ddlTargets(DdlEffect ddl, List<Backend> enabled) throws SQLException {
        switch (ddl.type()) {
            case CREATE_TABLE:
            case CREATE_VIEW: {
                if (ddl.type() == DdlEffect.Type.CREATE_TABLE && schema.known(ddl.table())) {
                    // the table exists: placing it again would create empty copies elsewhere. Where it
                    // is, IF NOT EXISTS does nothing and a plain CREATE fails, as on one database.
                    List<Backend> holders = schema.holders(ddl.table(), enabled);
                    if (holders.isEmpty()) {
                        throw notServable(Set.of(ddl.table()), enabled, "create");
                    }
                    return holders;
                }
                List<Backend> chosen;
                if (ddl.type() == DdlEffect.Type.CREATE_VIEW || !ddl.sources().isEmpty()) {
                    // a view or CREATE TABLE AS SELECT can only exist where its sources are
                    chosen = holdingAll(ddl.sources(), enabled);
                    if (ddl.type() == DdlEffect.Type.CREATE_TABLE) {
                        List<Backend> placed = placement.place(ddl.table(), chosen.isEmpty() ? enabled : chosen);
                        chosen = placed.stream().filter(chosen::contains).toList();
                    }
                    if (chosen.isEmpty()) {
                        throw notServable(ddl.sources(), enabled, "create " + ddl.table() + " from");
                    }
                    return chosen;
                }
                return placement.place(ddl.table(), enabled);
            }
            default: {
                List<Backend> holders = schema.holders(ddl.table(), enabled);
                return holders.isEmpty() ? enabled : holders; // unknown: every backend reports it
            }
        }
    }

    @Override
    public Runnable applied(Backend b, SqlAnalysis a) {
        DdlEffect ddl = a.ddl();
        if (ddl == null) {
            return null;
        }
        switch (ddl.type()) {
            case CREATE_TABLE:
            case CREATE_VIEW:
                if (schema.holds(b, ddl.table())) {
                    return null; // IF NOT EXISTS on a table it had
                }
                schema.add(b, ddl.table());
                return () -> schema.remove(b, ddl.table());
            case DROP:
                if (!schema.holds(b, ddl.table())) {
                    return null;
                }
                schema.remove(b, ddl.table());
                return () -> schema.add(b, ddl.table());
            case RENAME:
                schema.remove(b, ddl.table());
                schema.add(b, ddl.newName());
                return () -> {
                    schema.remove(b, ddl.newName());
                    schema.add(b, ddl.table());
                };
            default:
                return null;
        }
    }

    private List<Backend> holdingAll(Set<String> tables, List<Backend> enabled) {
        List<Backend> result = new ArrayList<>();
        for (Backend b : enabled) {
            boolean all = true;
            for (String t : tables) {
                if (!schema.holds(b, t)) {
                    all = false;
                    break;
                }
            }
            if (all) {
                result.add(b);
            }
        }
        return result;
    }

    /** "no enabled backend holds all of a, b: a is on db1, db2; b is on db3" */
    private SQLException notServable(Set<String> tables, List<Backend> enabled, String what) {
        StringJoiner where = new StringJoiner("; ");
        boolean missing = false;
        for (String t : tables) {
            List<String> names = new ArrayList<>();
            for (Backend b : enabled) {
                if (schema.holds(b, t)) {
                    names.add(b.name());
                }
            }
            missing |= names.isEmpty();
            where.add(t + (names.isEmpty() ? " is on no enabled backend" : " is on " + String.join(", ", names)));
        }
        String message = "cannot " + what + " " + String.join(", ", tables) + ": no enabled backend holds "
                + (tables.size() == 1 ? "it" : "all of them") + " (" + where + ")";
        // 42P01: a table is nowhere; 0A000: it exists, but a statement across backends is not supported
        return new SQLException(message, (missing ? SqlState.UNDEFINED_TABLE : SqlState.FEATURE_NOT_SUPPORTED).code());
    }
}
