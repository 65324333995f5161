package org.phalanx.controller.jmx;

import java.sql.SQLException;

/** The controller: what it hosts, and loading, unloading and shutting down. */
public interface ControllerMXBean {
    String getVersion();

    /** Address the driver connects to. */
    String getClientAddress();

    /** Port the driver connects to. */
    int getClientPort();

    /** Names of the hosted virtual databases. */
    String[] getVirtualDatabases();

    /** Client connections open now. */
    int getOpenConnections();

    /** Path of controller.xml. */
    String getConfigFile();

    /** The text of controller.xml as it is on disk now. */
    String getConfiguration();

    /** The text of a hosted virtual database's file as it is on disk now. */
    String virtualDatabaseConfiguration(String virtualDatabase) throws SQLException;

    /**
     * Reads a virtual database file (a path on the controller's machine, relative to
     * controller.xml's folder) and starts hosting it.
     *
     * @return the name of the virtual database
     */
    String loadVirtualDatabase(String file) throws SQLException;

    /** Stops hosting a virtual database; {@code mode} is wait, safe or force. */
    void unloadVirtualDatabase(String virtualDatabase, String mode) throws SQLException;

    /**
     * Shuts the controller (and its process) down; {@code mode} is wait, safe or force. Returns
     * at once; the controller stops in the background (for wait: once every client has left).
     */
    void shutdown(String mode);
}
