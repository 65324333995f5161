package org.phalanx.controller.config;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;

/**
 * The JMX connector: where it listens, who may use it, and optionally TLS.
 *
 * @param port   0 picks a free port (tests)
 * @param admins who may connect; with none no connector is opened (unauthenticated access is always refused)
 * @param tls    null for plain RMI
 */
public record JmxConfig(String address, int port, List<Admin> admins, Tls tls) {
    public static final String DEFAULT_ADDRESS = "127.0.0.1";
    public static final int DEFAULT_PORT = 1090;

    /** The admin these credentials name, if the password is right (JMX and the dashboard log in alike). */
    public static Optional<Admin> admit(List<Admin> admins, String user, String password) {
        Admin admitted = null;
        for (Admin admin : admins) {
            // compare both in constant time: the reply must not tell how much of a password was right
            boolean userMatches = MessageDigest.isEqual(bytes(admin.user()), bytes(user));
            boolean passwordMatches = MessageDigest.isEqual(bytes(admin.password()), bytes(password));
            if (userMatches & passwordMatches) {
                admitted = admin;
            }
        }
        return Optional.ofNullable(admitted);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A user allowed to manage the controller. */
    public record Admin(String user, String password) {
        @Override
        public String toString() {
            return "Admin[" + user + "]"; // never the password in a log line
        }
    }

    /** TLS for the connector: the controller's key store. */
    public record Tls(Path keyStore, String keyStorePassword, String keyStoreType) {
        @Override
        public String toString() {
            return "Tls[" + keyStore + ", " + keyStoreType + "]";
        }
    }
}
