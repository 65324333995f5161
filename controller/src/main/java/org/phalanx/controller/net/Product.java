package org.phalanx.controller.net;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** What HELLO_OK tells the driver about the server (DatabaseMetaData.getDatabaseProduct*). */
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
