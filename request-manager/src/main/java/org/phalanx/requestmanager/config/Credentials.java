package org.phalanx.requestmanager.config;

/** A real login on a backend. */
public record Credentials(String user, String password) {
    @Override
    public String toString() {
        return "Credentials[" + user + "]";
    }
}
