package org.phalanx.controller;

import org.phalanx.controller.jmx.ControllerMXBean;
import org.phalanx.controller.vdb.Product;
import org.phalanx.controller.vdb.VirtualDatabase;
import org.phalanx.engine.SqlState;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.regex.Pattern;

/** The controller MBean: a thin adapter over {@link Controller}. */
final class ControllerManagement implements ControllerMXBean {
    /** Passwords are not shown, even to admins: a terminal or a screen share is not a safe place for them. */
    private static final Pattern PASSWORD = Pattern.compile("((?i:password)\\s*=\\s*)(\"[^\"]*\"|'[^']*')");

    private final Controller controller;

    ControllerManagement(Controller controller) {
        this.controller = controller;
    }

    @Override
    public String getVersion() {
        return Product.VERSION;
    }

    @Override
    public String getClientAddress() {
        return controller.config().listen().address();
    }

    @Override
    public int getClientPort() {
        return controller.port();
    }

    @Override
    public String[] getVirtualDatabases() {
        return controller.virtualDatabaseNames().toArray(String[]::new);
    }

    @Override
    public int getOpenConnections() {
        return controller.openConnections();
    }

    @Override
    public String getConfigFile() {
        return String.valueOf(controller.config().file());
    }

    @Override
    public String getConfiguration() {
        return read(controller.config().file());
    }

    @Override
    public String virtualDatabaseConfiguration(String virtualDatabase) throws SQLException {
        VirtualDatabase vdb = controller.virtualDatabase(virtualDatabase);
        Path file = vdb.config().map(c -> c.file()).orElse(null);
        if (file == null) {
            throw new SQLException("virtual database " + virtualDatabase + " was not read from a file",
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        return read(file);
    }

    private static String read(Path file) {
        try {
            return PASSWORD.matcher(Files.readString(file)).replaceAll("$1\"***\"");
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage());
        }
    }

    @Override
    public String loadVirtualDatabase(String file) throws SQLException {
        Path path;
        try {
            path = Path.of(file);
        } catch (InvalidPathException | NullPointerException e) {
            throw new SQLException("'" + file + "' is not a file path", SqlState.INVALID_PARAMETER_VALUE.code());
        }
        try {
            return controller.loadVirtualDatabase(path).name();
        } catch (SQLException e) {
            throw new SQLException(e.getMessage() + " [SQLState " + e.getSQLState() + "]", e.getSQLState());
        }
    }

    @Override
    public void unloadVirtualDatabase(String virtualDatabase, String mode) throws SQLException {
        controller.unloadVirtualDatabase(virtualDatabase, ShutdownMode.parse(mode));
    }

    @Override
    public void shutdown(String mode) {
        controller.shutdown(ShutdownMode.parse(mode));
    }
}
