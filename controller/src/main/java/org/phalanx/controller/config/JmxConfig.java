package org.phalanx.controller.config;

import java.nio.file.Path;
import java.util.List;

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
