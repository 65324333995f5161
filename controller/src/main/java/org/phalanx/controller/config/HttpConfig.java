package org.phalanx.controller.config;

/**
 * The monitoring HTTP port: {@code /metrics} for Prometheus and the web dashboard.
 *
 * @param port         0 picks a free port (tests)
 * @param metrics      serve {@code /metrics}
 * @param dashboard    serve the dashboard (it admits the admin users of {@code <jmx>})
 * @param metricsLogin ask for an admin user on {@code /metrics} too (HTTP basic authentication)
 * @param tls          null for plain HTTP
 */
public record HttpConfig(String address, int port, boolean metrics, boolean dashboard, boolean metricsLogin,
                         JmxConfig.Tls tls) {
    public static final String DEFAULT_ADDRESS = "127.0.0.1";
    public static final int DEFAULT_PORT = 9322;
}
