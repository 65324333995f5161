package org.phalanx.bench.harness;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import org.phalanx.bench.cluster.BenchController;

/**
 * Where a variant sends its load: a JDBC URL with its login, the controller process behind it
 * (for its CPU time, emulation and cache counters; null when direct) and the virtual database's
 * name, whether PostgreSQL serves it (for the server's CPU time), and the names of the emulated
 * backends behind it (for utilisation).
 */
public record Endpoint(String url, Properties properties, BenchController controller, String vdb, boolean postgres,
                       List<String> emulatedBackends) {

    public static Endpoint direct(String url, String user, String password, boolean postgres) {
        return new Endpoint(url, login(user, password), null, null, postgres, List.of());
    }

    public static Endpoint phalanx(BenchController controller, String vdb, boolean postgres, List<String> emulatedBackends) {
        return new Endpoint(controller.url(vdb), login(BenchController.USER, BenchController.PASSWORD), controller,
                vdb, postgres, List.copyOf(emulatedBackends));
    }

    public static Properties login(String user, String password) {
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
        }
        if (password != null) {
            p.setProperty("password", password);
        }
        return p;
    }

    /** Adds a driver property (e.g. SQLite's journal_mode for a direct SQLite connection). */
    public Endpoint with(String key, String value) {
        Properties p = new Properties();
        p.putAll(properties);
        p.setProperty(key, value);
        return new Endpoint(url, p, controller, vdb, postgres, emulatedBackends);
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, properties);
    }

    public long controllerPid() {
        return controller == null ? 0 : controller.pid();
    }
}
