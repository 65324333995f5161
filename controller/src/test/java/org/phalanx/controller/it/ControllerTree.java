package org.phalanx.controller.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.JMX;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.phalanx.controller.ControllerMain;
import org.phalanx.controller.jmx.ObjectNames;
import org.phalanx.controller.jmx.VirtualDatabaseMXBean;
import org.phalanx.testkit.jdbc.FaultyDriver;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Ports;

/**
 * A 2-level tree of controllers (the C-JDBC paper's vertical scalability): two sub-controllers,
 * each a process hosting a RAIDb-1 virtual database over two SQLite leaves, and a top controller
 * whose virtual database "top" has the two sub-controllers' virtual databases as backends,
 * reached through the Phalanx driver. Every virtual database has user "app", password "secret".
 *
 * <p>The top runs as a third process with a JMX connector, through which a test acts as an
 * operator ({@link #top()}: backend states, dumps, restore, enable).
 */
final class ControllerTree implements AutoCloseable {
    /** Sub-controller (its virtual database has the same name) to its leaves. */
    static final Map<String, List<String>> LEAVES = Map.of("sub1", List.of("l1a", "l1b"), "sub2", List.of("l2a", "l2b"));
    static final List<String> ALL_LEAVES = List.of("l1a", "l1b", "l2a", "l2b");

    private final Path dir;
    private final Map<String, SubController> subs = new LinkedHashMap<>();
    private final int topPort;
    private final int topJmxPort;
    /** The sub-controller the top reaches through a slow link (writes there lag under 'first'), or null. */
    private final String slowSub;
    private ControllerProcess topProcess;
    private JMXConnector jmx;

    /**
     * Writes the configuration files and starts the three controllers.
     *
     * @param topRequestManager the top's {@code <requestManager>} element (replication, wait policy, placement)
     */
    ControllerTree(Path dir, String topRequestManager) throws Exception {
        this(dir, topRequestManager, null, 0);
    }

    /**
     * As above, with the top's link to {@code slowSub} delayed by {@code delayMillis} per statement
     * (the fault-injecting driver; the top then runs with the tests' class path), so that under
     * {@code waitPolicy="first"} that sub-controller is behind the other.
     */
    ControllerTree(Path dir, String topRequestManager, String slowSub, long delayMillis) throws Exception {
        this.dir = dir;
        this.slowSub = slowSub;
        for (String sub : LEAVES.keySet().stream().sorted().toList()) {
            subs.put(sub, new SubController(dir, sub, LEAVES.get(sub)));
        }
        topPort = Ports.free();
        topJmxPort = Ports.free();
        writeTop(topRequestManager);
        try {
            for (SubController sub : subs.values()) {
                sub.start();
            }
            topProcess = launchTop("controller.out", delayMillis);
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    private void writeTop(String requestManager) throws IOException {
        Path d = Files.createDirectories(dir.resolve("top"));
        StringBuilder backends = new StringBuilder();
        subs.forEach((sub, controller) -> {
            String url = controller.url();
            backends.append("    <backend name=\"").append(sub).append(sub.equals(slowSub) ? "\" url=\""
                            + FaultyDriver.url(sub, url) : "\" driver=\"org.phalanx.driver.Driver\" url=\"" + url)
                    .append("\" user=\"app\" password=\"secret\" poolSize=\"20\"/>\n");
        });
        Files.writeString(d.resolve("top.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="top">
                  <users><user name="app" password="secret"/></users>
                  <backends>
                %s  </backends>
                  %s
                  <recoveryLog dir="log"/>
                </virtualDatabase>
                """.formatted(backends, requestManager));
        Files.writeString(d.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="%d"/>
                  <jmx address="127.0.0.1" port="%d">
                    <admin user="admin" password="admin"/>
                  </jmx>
                  <virtualDatabase file="top.xml"/>
                </controller>
                """.formatted(topPort, topJmxPort));
    }

    /** Starts (or restarts) a sub-controller's process on its port, over the leaves it had. */
    void startSub(String sub) throws IOException, InterruptedException {
        subs.get(sub).start();
    }

    private ControllerProcess launchTop(String output, long delayMillis) throws IOException, InterruptedException {
        Path xml = dir.resolve("top/controller.xml");
        if (slowSub == null) {
            return ControllerProcess.launch(xml, dir.resolve("top/" + output), topPort, topJmxPort);
        }
        return ControllerProcess.java(ControllerMain.class.getName(), xml)
                .systemProperty("faulty." + slowSub + ".delayMillis", delayMillis)
                .directory(dir.resolve("top")).output(dir.resolve("top/" + output)).awaitPorts(topPort, topJmxPort)
                .awaitStarted().start();
    }

    /** kill -9 of the top controller: no shutdown hook, nothing flushed, its sessions at the subs cut off. */
    void killTop() throws IOException, InterruptedException {
        closeJmx();
        Process p = topProcess.process();
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
    }

    /** Starts the top controller again (over its recovery log; no link delayed any more); its output goes to {@code output}. */
    Path restartTop(String output) throws IOException, InterruptedException {
        topProcess = launchTop(output, 0);
        return dir.resolve("top/" + output);
    }

    private void closeJmx() throws IOException {
        if (jmx != null) {
            jmx.close();
            jmx = null;
        }
    }

    /** kill -9: the sub-controller dies at once, its sockets close under the top's connections. */
    void kill(String sub) throws InterruptedException {
        subs.get(sub).kill();
    }

    /** The top's virtual database as an operator manages it, over the top controller's JMX connector. */
    VirtualDatabaseMXBean top() throws IOException {
        if (jmx == null) {
            jmx = JMXConnectorFactory.connect(new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + topJmxPort
                    + "/jmxrmi"), Map.of(JMXConnector.CREDENTIALS, new String[] {"admin", "admin"}));
        }
        return JMX.newMXBeanProxy(jmx.getMBeanServerConnection(), ObjectNames.virtualDatabase("top"),
                VirtualDatabaseMXBean.class);
    }

    String topUrl() {
        return "jdbc:phalanx://127.0.0.1:" + topPort + "/top";
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(topUrl() + "?user=app&password=secret");
    }

    /**
     * Stops the top first (it drains its queued writes into the sub-controllers), then the
     * sub-controllers (they drain theirs into the leaves): afterwards the leaves are final.
     */
    @Override
    public void close() throws IOException {
        closeJmx();
        if (topProcess != null) {
            topProcess.close();
        }
        for (SubController sub : subs.values()) {
            sub.close();
        }
    }
}
