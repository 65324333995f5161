package org.phalanx.requestmanager;

/** A real login on a backend. */
public record Credentials(String user, String password) {
    @Override
    public String toString() {
        return "Credentials[" + user + "]";
    }
}
