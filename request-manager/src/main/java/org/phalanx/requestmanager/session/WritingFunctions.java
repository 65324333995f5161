package org.phalanx.requestmanager.session;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.analysis.SqlLexer;
import org.phalanx.requestmanager.backend.Backend;

/**
 * The virtual database's own functions that may change data, which a query can call ({@code SELECT
 * add_order(...)}, PostgreSQL's way to run a stored routine): such a query is a write, run on every
 * backend in the total order — taken as a read it ran on one replica, and the replicas diverged.
 * Known from a backend's catalog when first needed, and again every 30 seconds (a function
 * created on the backends directly counts from then on) — on PostgreSQL the {@code VOLATILE} functions
 * (the default; a {@code STABLE} or {@code IMMUTABLE} one cannot write) outside the system schemas
 * and extensions, on MariaDB the functions not declared {@code NO SQL} or {@code READS SQL DATA} —
 * and from then on from the DDL that creates functions, each of which counts (even a STABLE one:
 * its body is not read here; a read then only runs as a write).
 */
final class WritingFunctions {
    private static final String POSTGRES = "SELECT DISTINCT p.proname FROM pg_proc p"
            + " JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_language l ON l.oid = p.prolang"
            + " WHERE p.provolatile = 'v' AND p.prokind = 'f' AND l.lanname NOT IN ('internal', 'c')"
            + " AND n.nspname NOT IN ('pg_catalog', 'information_schema')"
            + " AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')";
    private static final String MARIADB = "SELECT ROUTINE_NAME FROM information_schema.ROUTINES"
            + " WHERE ROUTINE_SCHEMA = DATABASE() AND ROUTINE_TYPE = 'FUNCTION'"
            + " AND SQL_DATA_ACCESS NOT IN ('NO SQL', 'READS SQL DATA')";
    /** {@code CREATE [OR REPLACE] [DEFINER = ...] [AGGREGATE] FUNCTION [IF NOT EXISTS] [schema.]name}. */
    private static final Pattern CREATE_FUNCTION = Pattern.compile("(?is)\\s*create\\s+(?:or\\s+replace\\s+)?"
            + "(?:definer\\s*=\\s*\\S+\\s+)?function\\s+(?:if\\s+not\\s+exists\\s+)?(?:[`\"\\w]+\\s*\\.\\s*)?[`\"]?(\\w+).*");

    /** How long what a catalog said is trusted: functions created on the backends directly count after it. */
    private static final long REREAD_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(30);

    /** Lower case; empty until read from a catalog, or when there are none. */
    private final Set<String> names = ConcurrentHashMap.newKeySet();
    /** When the catalog was last read (nanoTime), or 0: not yet. */
    private volatile long read;

    /** Whether the query {@code sql} calls one of them (read from a backend's catalog first, and every 30 s). */
    boolean calledBy(String sql, List<Backend> enabled, String user) throws SQLException {
        long last = read;
        if (last == 0 || System.nanoTime() - last > REREAD_NANOS) {
            for (Backend b : enabled) {
                if (b.dialect() == Engine.POSTGRESQL || b.dialect() == Engine.MARIADB) {
                    readCatalog(b, user);
                    break;
                }
            }
        }
        return !names.isEmpty() && SqlLexer.mayCall(sql, names); // anywhere: SELECT * FROM add_order(...) too
    }

    /** A DDL statement that ran: a function it creates counts from now on. */
    void ran(String ddl) {
        Matcher m = CREATE_FUNCTION.matcher(ddl);
        if (m.matches()) {
            names.add(m.group(1).toLowerCase(Locale.ROOT));
        }
    }

    private synchronized void readCatalog(Backend backend, String user) throws SQLException {
        long last = read;
        if (last != 0 && System.nanoTime() - last <= REREAD_NANOS) {
            return; // another session read it meanwhile
        }
        try (Connection c = backend.connectionFor(user); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(backend.dialect() == Engine.POSTGRESQL ? POSTGRES : MARIADB)) {
            while (rs.next()) {
                names.add(rs.getString(1).toLowerCase(Locale.ROOT));
            }
        }
        read = System.nanoTime() | 1;
    }
}
