package org.phalanx.controller.config;

import java.nio.file.Path;

/**
 * Makes the file path of a {@code jdbc:sqlite:} URL absolute against the folder of the
 * configuration file that names it, so a copied sample folder is an independent cluster
 * whatever the working directory of the controller.
 */
public final class SqliteUrls {
    private static final String PREFIX = "jdbc:sqlite:";

    private SqliteUrls() {
    }

    /** Returns the URL unchanged unless it is a SQLite URL with a relative file path. */
    public static String resolve(String url, Path folder) {
        if (!url.startsWith(PREFIX)) {
            return url;
        }
        String rest = url.substring(PREFIX.length());
        int query = rest.indexOf('?');
        String path = query < 0 ? rest : rest.substring(0, query);
        String tail = query < 0 ? "" : rest.substring(query);
        // ":memory:", ":resource:..." and "file:" URIs are not plain paths; leave them to the driver
        if (path.isEmpty() || path.startsWith(":") || path.startsWith("file:") || Path.of(path).isAbsolute()) {
            return url;
        }
        return PREFIX + folder.toAbsolutePath().resolve(path).normalize() + tail;
    }
}
