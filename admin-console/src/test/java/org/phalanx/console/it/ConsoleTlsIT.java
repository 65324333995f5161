package org.phalanx.console.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.process.Launcher;

/** JMX over TLS: a key store made with keytool, the console with --tls trusting its certificate. */
class ConsoleTlsIT {
    private static final String STORE_PASSWORD = "changeit";

    @TempDir
    Path dir;

    @Test
    void theConsoleManagesOverTlsAndPlainRmiIsRefused() throws Exception {
        Path keyStore = dir.resolve("jmx.p12");
        ConsoleTestCluster.Run keytool = ConsoleTestCluster.run(List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair", "-alias", "jmx",
                "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", keyStore.toString(),
                "-storepass", STORE_PASSWORD, "-keypass", STORE_PASSWORD), Map.of());
        assertEquals(0, keytool.status(), keytool.toString());
        try (ConsoleTestCluster cluster = ConsoleTestCluster.withJmx(dir,
                "<tls keyStore=\"jmx.p12\" keyStorePassword=\"" + STORE_PASSWORD + "\"/>", "b1")) {
            String trust = "-Djavax.net.ssl.trustStore=" + keyStore + " -Djavax.net.ssl.trustStorePassword="
                    + STORE_PASSWORD;
            ConsoleTestCluster.Run tls = console(cluster, Map.of("PHALANX_JAVA_OPTS", trust), "--tls", "show", "vdbs");
            assertEquals(0, tls.status(), tls.toString());
            assertTrue(tls.out().contains("mydb"), tls.toString());

            ConsoleTestCluster.Run plain = console(cluster, Map.of(), "show", "vdbs");
            assertEquals(1, plain.status(), plain.toString());
            assertEquals(1, plain.errLines().size(), plain.toString());

            ConsoleTestCluster.Run untrusted = console(cluster, Map.of(), "--tls", "show", "vdbs");
            assertEquals(1, untrusted.status(), untrusted.toString());
            assertEquals(1, untrusted.errLines().size(), untrusted.toString());
        }
    }

    private static ConsoleTestCluster.Run console(ConsoleTestCluster cluster, Map<String, String> env, String... args)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(Launcher.SCRIPT.toString(), "console", "--jmx",
                cluster.jmx(), "--user", ConsoleTestCluster.ADMIN));
        command.addAll(List.of(args));
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("PHALANX_JMX_PASSWORD", ConsoleTestCluster.PASSWORD);
        return ConsoleTestCluster.run(command, all);
    }
}
