package org.phalanx.testkit.tls;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The JDK's keytool, run as an operator would to make key and trust stores for tests. */
public final class Keytool {
    private Keytool() {
    }

    /** Runs keytool with these arguments; fails with its output if it does not succeed. */
    public static void run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool " + String.join(" ", args) + " failed: " + out);
        }
    }

    /** A PKCS12 key store holding a new self-signed key pair for {@code localhost} and 127.0.0.1, alias "phalanx". */
    public static Path selfSigned(Path keyStore, String password) throws IOException, InterruptedException {
        run("-genkeypair", "-alias", "phalanx", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-keystore", keyStore.toString(),
                "-storepass", password, "-storetype", "PKCS12");
        return keyStore;
    }
}
