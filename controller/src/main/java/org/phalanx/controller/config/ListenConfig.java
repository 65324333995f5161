package org.phalanx.controller.config;

import org.phalanx.protocol.Protocol;

/**
 * Where the front end listens.
 *
 * @param port          0 picks a free port (tests)
 * @param maxFrameBytes largest frame accepted from an authenticated client
 */
public record ListenConfig(String address, int port, int maxFrameBytes) {
    public static final String DEFAULT_ADDRESS = "127.0.0.1";

    public static ListenConfig defaults() {
        return new ListenConfig(DEFAULT_ADDRESS, Protocol.DEFAULT_PORT, Protocol.DEFAULT_MAX_FRAME);
    }
}
