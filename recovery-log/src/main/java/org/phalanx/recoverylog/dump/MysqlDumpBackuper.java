package org.phalanx.recoverylog.dump;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.phalanx.engine.Engine;
import org.phalanx.recoverylog.ControllerTables;

/**
 * MariaDB's own tools: {@code mysqldump --single-transaction} and the {@code mysql} client.
 * mysqldump opens its own snapshot (it cannot share the caller's): the backend must not take
 * writes while it runs, as it does not while Phalanx dumps a disabled backend. The restore is
 * not transactional (MariaDB commits DDL at once); a failure says so. Only offered when
 * mysqldump and mysql are on the PATH.
 */
public final class MysqlDumpBackuper extends NativeDumpBackuper {
    public static final String FORMAT = "mysqldump";

    public MysqlDumpBackuper() {
        this(null);
    }

    public MysqlDumpBackuper(String password) {
        super(password);
    }

    public static boolean isInstalled() {
        return NativeTools.onPath("mysqldump") && NativeTools.onPath("mysql");
    }

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    Engine engine() {
        return Engine.MARIADB;
    }

    @Override
    String entryName() {
        return "mysqldump.sql";
    }

    @Override
    boolean compressed() {
        return false;
    }

    @Override
    int defaultPort() {
        return 3306;
    }

    @Override
    String database(Connection c) throws SQLException {
        return c.getCatalog();
    }

    private Map<String, String> env() {
        return password() == null ? Map.of() : Map.of("MYSQL_PWD", password());
    }

    private static List<String> connection(NativeTools.Server server) {
        List<String> args = new ArrayList<>(List.of("--host=" + server.host(), "--port=" + server.port(),
                "--protocol=TCP", "--default-character-set=utf8mb4"));
        if (server.user() != null) {
            args.add("--user=" + server.user());
        }
        return args;
    }

    @Override
    void dump(Connection source, NativeTools.Server server, Path file, Map<String, String> info) throws Exception {
        List<String> command = new ArrayList<>(List.of("mysqldump", "--single-transaction", "--hex-blob",
                "--no-tablespaces", "--skip-comments", "--result-file=" + file));
        command.add("--ignore-table=" + server.database() + "." + ControllerTables.APPLIED); // the controller's own
        command.addAll(connection(server));
        command.add(server.database());
        NativeTools.run(command, env(), null, null);
    }

    @Override
    void load(NativeTools.Server server, Path file, boolean force, Map<String, String> info) throws Exception {
        List<String> command = new ArrayList<>(List.of("mysql", "--binary-mode"));
        command.addAll(connection(server));
        command.add(server.database());
        try {
            NativeTools.run(command, env(), file, null);
        } catch (DumpException e) {
            throw new DumpException(e.getMessage() + " (MariaDB commits each table as it is created: the tables"
                    + " restored before the failure are left in place)", e);
        }
    }
}
