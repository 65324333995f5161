package org.phalanx.controller.vdb;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * Phalanx's own name and version: the product a virtual database reports to clients (HELLO_OK,
 * DatabaseMetaData.getDatabaseProduct*) when its backends name none, and the controller's version.
 */
public final class Product {
    public static final String NAME = "Phalanx";
    /** The Maven project version, written into version.properties at build time. */
    public static final String VERSION = readVersion();

    private Product() {
    }

    private static String readVersion() {
        try (InputStream in = Product.class.getResourceAsStream("/org/phalanx/controller/version.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.startsWith("${")) {
                    return v;
                }
            }
        } catch (IOException e) {
            // fall through: an unknown version does not stop the controller
        }
        return "unknown";
    }
}
