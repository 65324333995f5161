package org.phalanx.controller.web;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import javax.management.JMX;
import javax.net.ssl.SSLContext;
import org.phalanx.controller.Controller;
import org.phalanx.controller.jmx.ObjectNames;
import org.phalanx.controller.jmx.VirtualDatabaseMXBean;

/**
 * A controller started in-process from real XML files with its HTTP port open: virtual database
 * "vdb" (user "app", password "secret") over three SQLite files, with a recovery log and a result
 * cache; admin "admin" with password "admin-secret".
 *
 * @param httpAttributes extra attributes of {@code <http>}, e.g. {@code metricsLogin="true"}
 */
final class MonitoredController implements AutoCloseable {
    static final String ADMIN = "admin";
    static final String ADMIN_PASSWORD = "admin-secret";
    static final String[] BACKENDS = {"db1", "db2", "db3"};

    final Controller controller;
    final HttpClient http;
    private final String scheme;

    MonitoredController(Path dir, String httpAttributes) throws Exception {
        this(dir, httpAttributes, true);
    }

    MonitoredController(Path dir, String httpAttributes, boolean withAdmin) throws Exception {
        this(dir, httpAttributes, withAdmin, "", null);
    }

    /**
     * @param httpBody what goes inside {@code <http>} (a {@code <tls>} element)
     * @param trust    for HTTPS: what the test's client trusts; null for plain HTTP
     */
    MonitoredController(Path dir, String httpAttributes, boolean withAdmin, String httpBody, SSLContext trust)
            throws Exception {
        this.scheme = trust == null ? "http" : "https";
        this.http = trust == null ? HttpClient.newHttpClient() : HttpClient.newBuilder().sslContext(trust).build();
        Files.createDirectories(dir);
        StringBuilder backends = new StringBuilder();
        for (String name : BACKENDS) {
            backends.append("    <backend name=\"").append(name).append("\" url=\"jdbc:sqlite:")
                    .append(dir.resolve(name + ".db")).append("\"/>\n");
        }
        Files.writeString(dir.resolve("vdb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb">
                  <users><user name="app" password="secret"/></users>
                  <backends>
                %s  </backends>
                  <requestManager replication="RAIDb-1" waitPolicy="all" balancing="round-robin"/>
                  <recoveryLog dir="log"/>
                  <cache granularity="table" maxEntries="100"/>
                </virtualDatabase>
                """.formatted(backends));
        Files.writeString(dir.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="0"/>
                  <jmx port="0">%s</jmx>
                  <http port="0" %s>%s</http>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """.formatted(withAdmin ? "<admin user=\"" + ADMIN + "\" password=\"" + ADMIN_PASSWORD + "\"/>" : "",
                httpAttributes, httpBody));
        controller = Controller.fromConfig(dir.resolve("controller.xml"));
        controller.start();
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + controller.port() + "/vdb", "app", "secret");
    }

    /** Creates table t and runs {@code n} inserts and {@code n} reads of it. */
    void workload(int n) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v VARCHAR(20))");
            for (int i = 0; i < n; i++) {
                s.executeUpdate("INSERT INTO t (v) VALUES ('row " + i + "')");
                s.executeQuery("SELECT COUNT(*) FROM t").close();
            }
        }
    }

    VirtualDatabaseMXBean vdb() {
        return JMX.newMXBeanProxy(controller.mbeanServer(), ObjectNames.virtualDatabase("vdb"), VirtualDatabaseMXBean.class);
    }

    URI uri(String path) {
        return URI.create(scheme + "://127.0.0.1:" + controller.httpPort() + path);
    }

    HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() {
        controller.stop();
    }
}
