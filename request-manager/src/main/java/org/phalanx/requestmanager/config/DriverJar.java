package org.phalanx.requestmanager.config;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;

/**
 * Checks on a backend's {@code driverJar} made while its configuration is read, before anything
 * is loaded from the jar (the backend loads its driver from it when it starts).
 */
public final class DriverJar {
    private DriverJar() {
    }

    /** Whether the jar holds a class of that name (configuration checks). */
    public static boolean holds(Path jar, String className) {
        try (URLClassLoader probe = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            return probe.findResource(className.replace('.', '/') + ".class") != null;
        } catch (IOException e) {
            return false;
        }
    }
}
