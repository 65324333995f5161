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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.Ports;
import org.phalanx.testkit.tls.Keytool;

/**
 * The client port over TLS: a driver with ssl=true trusting the controller's certificate connects
 * and works; one without TLS is refused, with a hint; one that does not trust the certificate is
 * refused, saying why. A controller that asks for client certificates admits only a driver
 * presenting one it trusts. Key stores are made with keytool, as an operator would.
 */
class TlsClientPortIT {
    @TempDir
    Path dir;
    private Path trustStore;

    /** The controller's key store (keypass.txt holds its password) and a trust store of its certificate for the drivers. */
    @BeforeEach
    void keys() throws Exception {
        Keytool.selfSigned(dir.resolve("controller.p12"), "keypass");
        trustStore = trustStoreOf(dir.resolve("controller.p12"), "keypass", dir.resolve("trust.p12"), "trustpass");
        Files.writeString(dir.resolve("keypass.txt"), "keypass\n");
        Files.writeString(dir.resolve("vdb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb">
                  <users><user name="app" password="secret"/></users>
                  <backends><backend name="b1" url="jdbc:sqlite:%s"/></backends>
                </virtualDatabase>
                """.formatted(dir.resolve("b1.db").toAbsolutePath()));
    }

    /** A PKCS12 store trusting the certificate of the key store {@code keys}. */
    private Path trustStoreOf(Path keys, String keysPassword, Path trust, String trustPassword) throws Exception {
        Path certificate = dir.resolve(keys.getFileName() + ".cer");
        Keytool.run("-exportcert", "-alias", "phalanx", "-keystore", keys.toString(), "-storepass", keysPassword,
                "-file", certificate.toString());
        Keytool.run("-importcert", "-noprompt", "-alias", "phalanx", "-file", certificate.toString(),
                "-keystore", trust.toString(), "-storepass", trustPassword, "-storetype", "PKCS12");
        return trust;
    }

    private ControllerProcess controller(int port, String tlsAttributes) throws Exception {
        Files.writeString(dir.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="%d">
                    <tls keyStore="controller.p12" keyStorePasswordFile="keypass.txt" %s/>
                  </listen>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """.formatted(port, tlsAttributes));
        return ControllerProcess.launch(dir.resolve("controller.xml"), dir.resolve("controller.out"), port);
    }

    @Test
    void onlyADriverSpeakingTlsAndTrustingTheCertificateGetsIn() throws Exception {
        int port = Ports.free();
        try (ControllerProcess controller = controller(port, "")) {
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

    @Test
    void aControllerAskingForClientCertificatesAdmitsOnlyTheOnesItTrusts() throws Exception {
        Keytool.selfSigned(dir.resolve("client.p12"), "clientpass");
        trustStoreOf(dir.resolve("client.p12"), "clientpass", dir.resolve("clients.p12"), "clientspass");
        Keytool.selfSigned(dir.resolve("stranger.p12"), "strangerpass");
        int port = Ports.free();
        try (ControllerProcess controller = controller(port,
                "clientTrustStore=\"clients.p12\" clientTrustStorePassword=\"clientspass\"")) {
            String base = "jdbc:phalanx://127.0.0.1:" + port + "/vdb?user=app&password=secret&ssl=true&sslTrustStore="
                    + trustStore + "&sslTrustStorePassword=trustpass";
            try (Connection c = DriverManager.getConnection(base + "&sslKeyStore=" + dir.resolve("client.p12")
                    + "&sslKeyStorePassword=clientpass")) {
                assertEquals(1, one(c, "SELECT 1"));
            }
            SQLException none = assertThrows(SQLException.class, () -> DriverManager.getConnection(base).close());
            assertEquals("08001", none.getSQLState(), none.getMessage());
            SQLException stranger = assertThrows(SQLException.class, () -> DriverManager.getConnection(base
                    + "&sslKeyStore=" + dir.resolve("stranger.p12") + "&sslKeyStorePassword=strangerpass").close());
            assertEquals("08001", stranger.getSQLState(), stranger.getMessage());
        }
    }
}
