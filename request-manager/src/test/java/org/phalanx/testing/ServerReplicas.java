package org.phalanx.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.phalanx.requestmanager.RequestManager;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;

/**
 * A started request manager over two databases of its own on the local PostgreSQL or MariaDB server
 * (backends "a" and "b", RAIDb-1), for tests that compare the replicas; closing it stops the request
 * manager and drops the databases.
 */
public final class ServerReplicas implements AutoCloseable {
    private final List<ServerDatabase> databases = new ArrayList<>();
    private final RequestManager requestManager;

    /**
     * @param engine "postgresql" or "mariadb"
     * @param prefix the databases' names are {@code prefix_a} and {@code prefix_b}
     */
    public ServerReplicas(String engine, String prefix) throws SQLException {
        List<BackendConfig> backends = new ArrayList<>();
        for (String name : List.of("a", "b")) {
            ServerDatabase db = ServerDatabase.create(engine, prefix + "_" + name);
            databases.add(db);
            backends.add(BackendConfig.builder(name, db.url()).credentials(db.login()).poolSize(2).build());
        }
        // every write answered once both replicas ran it: a test may look at them directly right after
        requestManager = new RequestManager(prefix, RequestManagerConfig.builder().lockTimeout(Duration.ofSeconds(10))
                .waitPolicy(WaitPolicy.ALL).build(), backends);
        requestManager.start();
    }

    public RequestManager requestManager() {
        return requestManager;
    }

    public List<ServerDatabase> databases() {
        return databases;
    }

    /** A connection straight to one replica's database, past the request manager. */
    public static Connection direct(ServerDatabase db) throws SQLException {
        return DriverManager.getConnection(db.url(), db.login().user(), db.login().password());
    }

    /** The ids in {@code table} on one replica, past the request manager, in order ("1 2 3"). */
    public static String ids(ServerDatabase db, String table) throws SQLException {
        try (Connection c = direct(db); java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT id FROM " + table + " ORDER BY id")) {
            StringBuilder ids = new StringBuilder();
            while (rs.next()) {
                ids.append(rs.getInt(1)).append(' ');
            }
            return ids.toString().strip();
        }
    }

    @Override
    public void close() {
        requestManager.close();
        databases.forEach(ServerDatabase::close);
    }
}
