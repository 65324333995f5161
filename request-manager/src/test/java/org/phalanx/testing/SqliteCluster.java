package org.phalanx.testing;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.Credentials;

/** N SQLite backend files in a folder, each reachable through {@link FaultyDriver} as "NAME". */
public final class SqliteCluster {
    private final Path dir;
    private final List<String> names = new ArrayList<>();

    public SqliteCluster(Path dir, String... names) {
        this.dir = dir;
        this.names.addAll(List.of(names));
    }

    public Path file(String name) {
        return dir.resolve(name + ".db");
    }

    public List<String> names() {
        return names;
    }

    /** Backend configs going through the fault injector (no fault until one is set). */
    public List<BackendConfig> backendConfigs() {
        List<BackendConfig> configs = new ArrayList<>();
        for (String n : names) {
            FaultyDriver.fault(n).delayMillis = 0;
            FaultyDriver.fault(n).broken = false;
            FaultyDriver.fault(n).executions.set(0);
            configs.add(new BackendConfig(n, FaultyDriver.url(n, "jdbc:sqlite:" + file(n)),
                    FaultyDriver.class.getName(), new Credentials(null, null), Map.of(), 20, 1));
        }
        return configs;
    }

    /** A direct connection to one backend file, bypassing Phalanx. */
    public Connection direct(String name) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + file(name));
    }

    /** A checksum of a table's rows in primary-key order, read directly from the file. */
    public String checksum(String name, String table, String orderBy) throws SQLException {
        try (Connection c = direct(name); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY " + orderBy)) {
            return checksum(rs);
        }
    }

    public static String checksum(ResultSet rs) throws SQLException {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            ResultSetMetaData meta = rs.getMetaData();
            long rows = 0;
            while (rs.next()) {
                rows++;
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    md.update(String.valueOf(rs.getString(i)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    md.update((byte) 0);
                }
                md.update((byte) '\n');
            }
            return rows + ":" + HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
