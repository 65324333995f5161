package org.phalanx.requestmanager.session;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.rowset.RowSetMetaDataImpl;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.TypedNull;
import org.phalanx.requestmanager.backend.Backend;

/**
 * The virtual database is the one catalog its clients see, whichever backend answers: metadata
 * reports its name where a backend reports its own database (PostgreSQL's, MariaDB's) or none
 * (SQLite), and {@code getCatalogs} lists only it. A catalog argument naming it — or none, since
 * it is the only one — is the answering backend's own database there; so is one naming any
 * backend's own database, which SQL still reports ({@code DATABASE()}, {@code current_database()}
 * answer as the backend that runs them) and tools such as Flyway pass back. Any other catalog
 * matches nothing, as a database that does not exist would (MariaDB would otherwise show other
 * databases of its server). One per virtual database.
 */
final class VirtualCatalog {
    /** Metadata methods whose first argument is a catalog. */
    private static final Set<String> CATALOG_ARGUMENT = Set.of("getTables", "getColumns", "getPrimaryKeys",
            "getIndexInfo", "getImportedKeys", "getExportedKeys", "getSchemas");
    /** Result columns that name a catalog. */
    private static final Set<String> CATALOG_COLUMNS = Set.of("TABLE_CAT", "PKTABLE_CAT", "FKTABLE_CAT",
            "TABLE_CATALOG");

    private static final Pattern USE = Pattern.compile("(?is)\\s*use\\s+(`[^`]+`|\"[^\"]+\"|[\\w$]+)[\\s;]*");

    private final String name;
    /** Each backend's own database as its driver names it ("" for none), learnt at first need. */
    private final Map<Backend, String> ownCatalogs = new ConcurrentHashMap<>();

    VirtualCatalog(String name) {
        this.name = name;
    }

    /**
     * The arguments as backend {@code b}, reached through {@code c}, takes them; null when they ask
     * about a catalog that is not this virtual database's (the answer is then empty).
     * {@code backends} are those whose own database names may be passed as the catalog.
     */
    List<Object> toBackend(String method, List<Object> args, Backend b, Connection c, List<Backend> backends,
                           String user) throws SQLException {
        if (!CATALOG_ARGUMENT.contains(method) || args.isEmpty()) {
            return args;
        }
        Object v = args.get(0);
        String catalog = v == null || v instanceof TypedNull ? null : v.toString();
        if (catalog != null && (catalog.isEmpty() || !isThisDatabase(catalog, backends, user))) {
            return catalog.isEmpty() ? args : null;
        }
        List<Object> translated = new ArrayList<>(args);
        String own = ownCatalog(b, c);
        translated.set(0, own.isEmpty() ? null : own);
        return translated;
    }

    /** MariaDB's {@code USE db}: the database it names, or null when the statement is no USE. */
    static String useTarget(String sql) {
        Matcher m = USE.matcher(sql);
        return m.matches() ? m.group(1).replaceAll("^[`\"]|[`\"]$", "") : null;
    }

    /**
     * {@code USE db} on the virtual database: nothing to do when {@code db} is this database (its
     * name or a backend's own, as {@code DATABASE()} reports it); any other is refused, as a
     * database that does not exist would be (run on the backends, it would leave pooled
     * connections in another database and the session's next statements on others in this one).
     */
    void use(String database, List<Backend> backends, String user) throws SQLException {
        if (!isThisDatabase(database, backends, user)) {
            throw new SQLException("database " + database + " is not this virtual database (" + name
                    + "), which is one database: USE cannot switch to another", SqlState.INVALID_CATALOG_NAME.code());
        }
    }

    private boolean isThisDatabase(String catalog, List<Backend> backends, String user) throws SQLException {
        if (catalog.equalsIgnoreCase(name)) {
            return true;
        }
        for (Backend b : backends) {
            String own = ownCatalogs.get(b);
            if (own == null) {
                try (Connection c = b.connectionFor(user)) {
                    own = ownCatalog(b, c);
                }
            }
            if (own.equals(catalog)) {
                return true;
            }
        }
        return false;
    }

    private String ownCatalog(Backend b, Connection c) throws SQLException {
        String own = ownCatalogs.get(b);
        if (own == null) {
            String reported = c.getCatalog();
            own = reported == null ? "" : reported;
            ownCatalogs.put(b, own);
        }
        return own;
    }

    /** The answer with every catalog column naming the virtual database; no rows when {@code empty}. */
    Result.Cached named(Result.Cached answer, boolean empty) throws SQLException {
        List<Integer> columns = ControllerTablesHidden.columns(answer.metaData(), CATALOG_COLUMNS);
        List<Object[]> rows = new ArrayList<>(empty ? 0 : answer.rows().size());
        if (!empty) {
            for (Object[] row : answer.rows()) {
                for (int c : columns) {
                    row[c] = name;
                }
                rows.add(row);
            }
        }
        return new Result.Cached(answer.metaData(), rows);
    }

    /** {@code getCatalogs}: the virtual database alone. */
    Result.Cached catalogs() throws SQLException {
        RowSetMetaDataImpl md = new RowSetMetaDataImpl();
        md.setColumnCount(1);
        md.setColumnName(1, "TABLE_CAT");
        md.setColumnLabel(1, "TABLE_CAT");
        md.setColumnType(1, Types.VARCHAR);
        md.setColumnTypeName(1, "VARCHAR");
        md.setNullable(1, java.sql.ResultSetMetaData.columnNoNulls);
        md.setTableName(1, "");
        md.setSchemaName(1, "");
        md.setCatalogName(1, "");
        List<Object[]> rows = new ArrayList<>(1);
        rows.add(new Object[] {name});
        return new Result.Cached(md, rows);
    }
}
