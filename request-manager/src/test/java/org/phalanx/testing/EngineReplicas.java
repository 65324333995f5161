package org.phalanx.testing;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.phalanx.requestmanager.RequestManager;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;

/**
 * A started request manager over two replicas of one engine: SQLite files in a folder, or
 * databases of their own on the local PostgreSQL or MariaDB server ({@link ServerReplicas}); for
 * tests run on each engine that compare the replicas afterwards.
 */
public final class EngineReplicas implements AutoCloseable {
    private final ServerReplicas servers;
    private final SqliteCluster files;
    private final RequestManager sqlite;

    /** @param engine "sqlite", "postgresql" or "mariadb" */
    public EngineReplicas(String engine, Path dir, String prefix) throws SQLException {
        if (engine.equals("sqlite")) {
            servers = null;
            files = new SqliteCluster(dir, "a", "b");
            sqlite = new RequestManager(prefix, RequestManagerConfig.builder().lockTimeout(Duration.ofSeconds(10))
                    .waitPolicy(WaitPolicy.ALL).build(), files.backendConfigs()); // as ServerReplicas
            sqlite.start();
        } else {
            servers = new ServerReplicas(engine, prefix);
            files = null;
            sqlite = null;
        }
    }

    public RequestManager requestManager() {
        return servers != null ? servers.requestManager() : sqlite;
    }

    /** The ids in {@code table} on each replica, past the request manager ("1 2 3" each). */
    public List<String> ids(String table) throws SQLException {
        List<String> ids = new ArrayList<>();
        if (servers != null) {
            for (ServerDatabase db : servers.databases()) {
                ids.add(ServerReplicas.ids(db, table));
            }
            return ids;
        }
        for (String name : files.names()) {
            try (Connection c = files.direct(name); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT id FROM " + table + " ORDER BY id")) {
                StringBuilder row = new StringBuilder();
                while (rs.next()) {
                    row.append(rs.getInt(1)).append(' ');
                }
                ids.add(row.toString().strip());
            }
        }
        return ids;
    }

    @Override
    public void close() {
        if (servers != null) {
            servers.close();
        } else {
            sqlite.close();
        }
    }
}
