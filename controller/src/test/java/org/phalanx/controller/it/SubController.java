package org.phalanx.controller.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Ports;

/**
 * A sub-controller of the nested tests: a controller process hosting one RAIDb-1 virtual database
 * (named like the sub-controller, user "app", password "secret") over SQLite leaves, its
 * configuration and leaf files in a folder of that name. Another controller reaches it as a
 * backend through {@link #url()}.
 */
final class SubController implements AutoCloseable {
    private final String name;
    private final Path folder;
    private final int port = Ports.free();
    private ControllerProcess process;

    /** Writes the configuration into {@code parent/name}; {@link #start()} starts it. */
    SubController(Path parent, String name, List<String> leaves) throws IOException {
        this.name = name;
        this.folder = Files.createDirectories(parent.resolve(name));
        StringBuilder backends = new StringBuilder();
        for (String leaf : leaves) {
            // more connections than the upper controller's pool to this sub-controller (20): under 'first' a leaf
            // that is behind holds a connection for each transaction queued on it (docs/nested-controllers.md)
            backends.append("    <backend name=\"").append(leaf).append("\" url=\"jdbc:sqlite:").append(leaf)
                    .append(".db\" poolSize=\"60\"/>\n");
        }
        Files.writeString(folder.resolve(name + ".xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="%s">
                  <users><user name="app" password="secret"/></users>
                  <backends>
                %s  </backends>
                  <requestManager replication="RAIDb-1" waitPolicy="first" balancing="least-pending" lockTimeout="20s"/>
                </virtualDatabase>
                """.formatted(name, backends));
        Files.writeString(folder.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="%d"/>
                  <virtualDatabase file="%s.xml"/>
                </controller>
                """.formatted(port, name));
    }

    /** Starts (or restarts) its process on its port, over the leaves it had. */
    void start() throws IOException, InterruptedException {
        process = ControllerProcess.launch(folder.resolve("controller.xml"),
                folder.resolve("controller-" + System.nanoTime() + ".out"), port);
    }

    /** kill -9: it dies at once, its sockets close under the upper controller's connections. */
    void kill() throws InterruptedException {
        Process p = process.process();
        process = null;
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
    }

    /** Its virtual database's URL, without credentials (the backend element carries them). */
    String url() {
        return "jdbc:phalanx://127.0.0.1:" + port + "/" + name;
    }

    /** The JDBC URL of one of its leaves, read directly. */
    String leafUrl(String leaf) {
        return "jdbc:sqlite:" + folder.resolve(leaf + ".db").toAbsolutePath();
    }

    /** Stops it cleanly: it drains what is queued into its leaves first. */
    @Override
    public void close() {
        if (process != null) {
            process.close();
            process = null;
        }
    }
}
