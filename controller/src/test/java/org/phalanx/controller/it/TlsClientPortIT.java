package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.controller.it.Sql.one;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Ports;
import org.phalanx.testkit.tls.Keytool;

/**
 * The client port over TLS: a driver with ssl=true trusting the controller's certificate connects
 * and works; one without TLS is refused, with a hint; one that does not trust the certificate is
 * refused, saying why. The key store is made with keytool, as an operator would.
 */
class TlsClientPortIT {
    @TempDir
    Path dir;

    @Test
    void onlyADriverSpeakingTlsAndTrustingTheCertificateGetsIn() throws Exception {
        Path keyStore = dir.resolve("controller.p12");
        Keytool.selfSigned(keyStore, "keypass");
        Keytool.run("-exportcert", "-alias", "phalanx", "-keystore", keyStore.toString(), "-storepass", "keypass",
                "-file", dir.resolve("controller.cer").toString());
        Path trustStore = dir.resolve("trust.p12");
        Keytool.run("-importcert", "-noprompt", "-alias", "phalanx", "-file", dir.resolve("controller.cer").toString(),
                "-keystore", trustStore.toString(), "-storepass", "trustpass", "-storetype", "PKCS12");
        Files.writeString(dir.resolve("keypass.txt"), "keypass\n");

        int port = Ports.free();
        Files.writeString(dir.resolve("vdb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb">
                  <users><user name="app" password="secret"/></users>
                  <backends><backend name="b1" url="jdbc:sqlite:%s"/></backends>
                </virtualDatabase>
                """.formatted(dir.resolve("b1.db").toAbsolutePath()));
        Files.writeString(dir.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="%d">
                    <tls keyStore="controller.p12" keyStorePasswordFile="keypass.txt"/>
                  </listen>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """.formatted(port));
        try (ControllerProcess controller = ControllerProcess.launch(dir.resolve("controller.xml"),
                dir.resolve("controller.out"), port)) {
            String base = "jdbc:phalanx://127.0.0.1:" + port + "/vdb?user=app&password=secret";
            try (Connection c = DriverManager.getConnection(base + "&ssl=true&sslTrustStore=" + trustStore
                    + "&sslTrustStorePassword=trustpass")) {
                assertEquals(1, one(c, "SELECT 1"));
                Thread.sleep(2500); // idle long enough to wait without a thread, TLS and all
                assertEquals(1, one(c, "SELECT 1"));
            }
            SQLException plain = assertThrows(SQLException.class, () -> DriverManager.getConnection(base).close());
            assertEquals("08001", plain.getSQLState());
            assertTrue(plain.getMessage().contains("ssl=true"), plain.getMessage());
            SQLException untrusted = assertThrows(SQLException.class,
                    () -> DriverManager.getConnection(base + "&ssl=true").close());
            assertEquals("08001", untrusted.getSQLState());
            assertTrue(untrusted.getMessage().contains("SSLHandshakeException"), untrusted.getMessage());
        }
    }
}
