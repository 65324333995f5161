package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.phalanx.controller.it.Sql.one;
import static org.phalanx.controller.it.Sql.update;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Ports;

/**
 * The driver's multi-host URL: a connection whose controller dies (kill -9) goes on with the
 * next one — a plain read in auto-commit is answered there unseen, with the session's settings put
 * back; a statement inside a transaction gets 40001 (the transaction went with the controller); a
 * write in auto-commit gets 08006 saying its outcome is unknown; and the connection stays usable.
 * Two controller processes serve one virtual database over the same two SQLite files, one at a time.
 */
class DriverFailoverIT {
    @TempDir
    Path dir;
    private final int[] ports = new int[2];
    private final ControllerProcess[] controllers = new ControllerProcess[2];

    @AfterEach
    void stop() {
        for (ControllerProcess c : controllers) {
            if (c != null) {
                c.close();
            }
        }
    }

    private void write(int i) throws IOException {
        Path d = Files.createDirectories(dir.resolve("c" + i));
        StringBuilder backends = new StringBuilder();
        for (String leaf : new String[] {"l1", "l2"}) {
            backends.append("    <backend name=\"").append(leaf).append("\" url=\"jdbc:sqlite:")
                    .append(dir.resolve(leaf + ".db").toAbsolutePath()).append("\"/>\n");
        }
        Files.writeString(d.resolve("vdb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb">
                  <users><user name="app" password="secret"/></users>
                  <backends>
                %s  </backends>
                  <requestManager replication="RAIDb-1" waitPolicy="all"/>
                </virtualDatabase>
                """.formatted(backends));
        Files.writeString(d.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="%d"/>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """.formatted(ports[i]));
    }

    private void start(int i) throws Exception {
        controllers[i] = ControllerProcess.launch(dir.resolve("c" + i + "/controller.xml"),
                dir.resolve("c" + i + "/controller-" + System.nanoTime() + ".out"), ports[i]);
    }

    private void kill(int i) throws InterruptedException {
        Process p = controllers[i].process();
        controllers[i] = null;
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
    }

    private static String column(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); var rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void aConnectionGoesOnWithTheNextControllerAndSaysWhatWasLost() throws Exception {
        for (int i = 0; i < 2; i++) {
            ports[i] = Ports.free();
            write(i);
        }
        String url = "jdbc:phalanx://127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1] + "/vdb?user=app&password=secret";
        start(0);
        try (Connection setup = DriverManager.getConnection(url); Statement s = setup.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
            for (int id = 1; id <= 3; id++) {
                update(setup, "INSERT INTO t VALUES (?, 'row')", id);
            }
        }
        start(1); // after the schema exists: it learns it at start
        try (Connection c = DriverManager.getConnection(url)) {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA foreign_keys = ON"); // the session's own setting
            }
            assertEquals(3, one(c, "SELECT COUNT(*) FROM t"));

            // its controller dies: a read goes on with the other, unseen, with the session's setting
            kill(0);
            assertEquals(3, one(c, "SELECT COUNT(*) FROM t"));
            assertEquals("1", column(c, "PRAGMA foreign_keys"));
            start(0);

            // inside a transaction: 40001, and the connection goes on in a new one
            c.setAutoCommit(false);
            update(c, "INSERT INTO t VALUES (4, 'in a transaction')");
            kill(1);
            assertThrows(SQLTransactionRollbackException.class, () -> update(c, "INSERT INTO t VALUES (5, 'after')"));
            c.rollback();
            c.setAutoCommit(true);
            assertEquals(3, one(c, "SELECT COUNT(*) FROM t"), "nothing of the transaction was committed");
            start(1);

            // a write in auto-commit when its controller died: 08006, its outcome unknown; then it goes on
            kill(0);
            SQLException unknown = assertThrows(SQLException.class, () -> update(c, "INSERT INTO t VALUES (6, 'unknown')"));
            assertEquals("08006", unknown.getSQLState(), unknown.getMessage());
            update(c, "INSERT INTO t VALUES (7, 'after the failover')");
            assertEquals(1, one(c, "SELECT COUNT(*) FROM t WHERE id = 7"));
            assertEquals("1", column(c, "PRAGMA foreign_keys"));
        }
    }
}
