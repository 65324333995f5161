package org.phalanx.requestmanager.backend;

import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import org.phalanx.engine.SqlState;

/**
 * JDBC drivers loaded from a jar named in the configuration, each jar in a class loader of its
 * own whose parent is the platform class loader: the driver's classes never mix with those on the
 * controller's classpath, so two versions of one driver (or a driver the controller also carries)
 * serve different backends side by side. DriverManager does not hand such a driver to code that
 * cannot see its classes, so it stays private to the backends that name its jar.
 */
public final class DriverJars {
    /** One loader per jar: backends naming the same jar share its classes (and its native library). */
    private static final Map<Path, URLClassLoader> LOADERS = new ConcurrentHashMap<>();

    private DriverJars() {
    }

    /**
     * A driver from the jar: of class {@code driverClass}, or when that is null the first driver
     * the jar declares (META-INF/services/java.sql.Driver) that accepts the URL.
     *
     * @throws SQLException (SQLState 08001) when the jar or the driver cannot be loaded
     */
    public static Driver load(Path jar, String driverClass, String url) throws SQLException {
        ClassLoader loader = loader(jar);
        try {
            if (driverClass != null) {
                Class<?> type = Class.forName(driverClass, true, loader);
                return (Driver) type.getDeclaredConstructor().newInstance();
            }
            for (Driver d : ServiceLoader.load(Driver.class, loader)) {
                if (d.getClass().getClassLoader() == loader && d.acceptsURL(url)) {
                    return d;
                }
            }
        } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
            throw new SQLException("cannot load JDBC driver " + driverClass + " from " + jar + ": " + e,
                    SqlState.SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION.code(), e);
        }
        throw new SQLException("no JDBC driver in " + jar + " accepts " + url,
                SqlState.SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION.code());
    }

    private static ClassLoader loader(Path jar) throws SQLException {
        Path key = jar.toAbsolutePath().normalize();
        if (!Files.isReadable(key)) {
            throw new SQLException("driver jar " + key + " cannot be read",
                    SqlState.SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION.code());
        }
        try {
            return LOADERS.computeIfAbsent(key, k -> {
                try {
                    URL url = k.toUri().toURL();
                    return new URLClassLoader("phalanx-driver-" + k.getFileName(), new URL[] {url},
                            ClassLoader.getPlatformClassLoader());
                } catch (MalformedURLException e) {
                    throw new IllegalArgumentException(e);
                }
            });
        } catch (IllegalArgumentException e) {
            throw new SQLException("driver jar " + key + " cannot be opened: " + e.getMessage(),
                    SqlState.SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION.code(), e);
        }
    }
}
