package org.phalanx.requestmanager.api;

/**
 * Told about every change of a backend's state (management notifications). Called on the
 * thread that changed it, after the change: keep it quick and do not throw.
 */
@FunctionalInterface
public interface BackendListener {
    /**
     * @param reason  why (a failure's error, "disabled by an operator", ...); null when enabled
     * @param failure whether the backend left service because it failed (not an operator's action)
     */
    void stateChanged(BackendView backend, BackendState from, BackendState to, String reason, boolean failure);
}
