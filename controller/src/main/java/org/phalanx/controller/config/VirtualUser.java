package org.phalanx.controller.config;

/**
 * A login a client gives the controller (not a backend login).
 *
 * @param password     the password, or null when only its hash is kept
 * @param passwordHash its salted hash ({@code pbkdf2-sha256:...}), or null when the password is given
 */
public record VirtualUser(String name, String password, String passwordHash) {
    public VirtualUser(String name, String password) {
        this(name, password, null);
    }

    @Override
    public String toString() {
        return "VirtualUser[" + name + "]";
    }
}
