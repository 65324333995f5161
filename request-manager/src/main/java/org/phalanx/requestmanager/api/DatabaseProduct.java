package org.phalanx.requestmanager.api;

import org.phalanx.engine.Engine;

/** A database product as {@code DatabaseMetaData} names it: {@code getDatabaseProductName/Version}. */
public record DatabaseProduct(String name, String version) {

    /**
     * A product speaking an engine's SQL, named as its JDBC driver names it, at a version as recent
     * as the drivers Phalanx ships with know: what a virtual database declaring that dialect reports
     * until a backend of that engine tells its own.
     */
    public static DatabaseProduct of(Engine engine) {
        switch (engine) {
            case POSTGRESQL:
                return new DatabaseProduct("PostgreSQL", "16.0");
            case MARIADB:
                return new DatabaseProduct("MariaDB", "11.4.0-MariaDB");
            case SQLITE:
                return new DatabaseProduct("SQLite", "3.50.3");
            default:
                throw new IllegalArgumentException("no SQL dialect of its own: " + engine);
        }
    }
}
