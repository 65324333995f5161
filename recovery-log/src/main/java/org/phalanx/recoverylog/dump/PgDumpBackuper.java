package org.phalanx.recoverylog.dump;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.phalanx.engine.Engine;
import org.phalanx.recoverylog.ControllerTables;

/**
 * PostgreSQL's own tools: {@code pg_dump --format=custom} of the connection's current schema and
 * {@code pg_restore --single-transaction} (all or nothing). The dump reads the caller's snapshot:
 * the open transaction on the source connection exports it ({@code pg_export_snapshot()}) and
 * pg_dump runs with {@code --snapshot}. Only offered when pg_dump and pg_restore are on the PATH.
 */
public final class PgDumpBackuper extends NativeDumpBackuper {
    public static final String FORMAT = "pg_dump";

    public PgDumpBackuper() {
        this(null);
    }

    public PgDumpBackuper(String password) {
        super(password);
    }

    public static boolean isInstalled() {
        return NativeTools.onPath("pg_dump") && NativeTools.onPath("pg_restore");
    }

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    Engine engine() {
        return Engine.POSTGRESQL;
    }

    @Override
    String entryName() {
        return "pg_dump.custom";
    }

    @Override
    boolean compressed() {
        return true;
    }

    @Override
    int defaultPort() {
        return 5432;
    }

    @Override
    String database(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT current_database()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private Map<String, String> env() {
        return password() == null ? Map.of() : Map.of("PGPASSWORD", password());
    }

    private static List<String> connection(NativeTools.Server server) {
        List<String> args = new ArrayList<>(List.of("-h", server.host(), "-p", Integer.toString(server.port()),
                "-d", server.database()));
        if (server.user() != null) {
            args.addAll(List.of("-U", server.user()));
        }
        return args;
    }

    @Override
    void dump(Connection source, NativeTools.Server server, Path file, Map<String, String> info) throws Exception {
        if (source.getAutoCommit()) {
            throw new DumpException("pg_dump shares the caller's snapshot: open a transaction on the source connection first");
        }
        String snapshot;
        String schema;
        try (Statement s = source.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_export_snapshot(), current_schema()")) {
            rs.next();
            snapshot = rs.getString(1);
            schema = rs.getString(2);
        }
        info.put("pg_dump.schema", schema);
        List<String> command = new ArrayList<>(List.of("pg_dump", "--format=custom", "--no-owner", "--no-privileges",
                "--snapshot=" + snapshot, "--schema=" + schema, "--file=" + file,
                "--exclude-table=" + schema + "." + ControllerTables.APPLIED)); // the controller's own, not data
        command.addAll(connection(server));
        NativeTools.run(command, env(), null, null);
    }

    @Override
    void load(NativeTools.Server server, Path file, boolean force, Map<String, String> info) throws Exception {
        // --schema restores the schema's objects but not CREATE SCHEMA itself, which exists already
        List<String> command = new ArrayList<>(List.of("pg_restore", "--no-owner", "--no-privileges",
                "--single-transaction", "--exit-on-error", "--schema=" + info.getOrDefault("pg_dump.schema", "public")));
        if (force) {
            command.addAll(List.of("--clean", "--if-exists"));
        }
        command.addAll(connection(server));
        command.add(file.toString());
        NativeTools.run(command, env(), null, null);
    }
}
