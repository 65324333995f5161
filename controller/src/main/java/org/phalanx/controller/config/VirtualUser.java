package org.phalanx.controller.config;

/** A login a client gives the controller (not a backend login). */
public record VirtualUser(String name, String password) {
    @Override
    public String toString() {
        return "VirtualUser[" + name + "]";
    }
}
