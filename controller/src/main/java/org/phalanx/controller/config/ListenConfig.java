package org.phalanx.controller.config;

import org.phalanx.protocol.Protocol;

import java.time.Duration;

/**
 * Where the front end listens.
 *
 * @param port          0 picks a free port (tests)
 * @param maxFrameBytes largest frame accepted from an authenticated client
 * @param maxConnections client connections open at once, at most; more are refused (53300)
 * @param maxConnectionsPerUser connections of one user of one virtual database at once, at most (0: no limit)
 * @param tls           the key store of the port's TLS, or null for plain TCP
 * @param writeTimeout  how long a reply may wait for its client to read it before the connection is closed
 * @param clientTrust   with TLS, the certificates a client must present one of (null: clients present none)
 */
public record ListenConfig(String address, int port, int maxFrameBytes, int maxConnections, int maxConnectionsPerUser,
                           JmxConfig.Tls tls, Duration writeTimeout, JmxConfig.Tls clientTrust) {
    public static final String DEFAULT_ADDRESS = "127.0.0.1";
    /** Idle connections cost no thread; a file descriptor each and the sessions' memory bound them. */
    public static final int DEFAULT_MAX_CONNECTIONS = 2000;
    /** As MariaDB's net_write_timeout: a client that reads nothing for a minute has gone. */
    public static final Duration DEFAULT_WRITE_TIMEOUT = Duration.ofSeconds(60);

    public ListenConfig(String address, int port, int maxFrameBytes) {
        this(address, port, maxFrameBytes, DEFAULT_MAX_CONNECTIONS, 0);
    }

    public ListenConfig(String address, int port, int maxFrameBytes, int maxConnections, int maxConnectionsPerUser) {
        this(address, port, maxFrameBytes, maxConnections, maxConnectionsPerUser, null, DEFAULT_WRITE_TIMEOUT);
    }

    public ListenConfig(String address, int port, int maxFrameBytes, int maxConnections, int maxConnectionsPerUser,
                        JmxConfig.Tls tls, Duration writeTimeout) {
        this(address, port, maxFrameBytes, maxConnections, maxConnectionsPerUser, tls, writeTimeout, null);
    }

    public static ListenConfig defaults() {
        return new ListenConfig(DEFAULT_ADDRESS, Protocol.DEFAULT_PORT, Protocol.DEFAULT_MAX_FRAME);
    }
}
