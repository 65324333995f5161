package org.phalanx.testing;

import org.phalanx.requestmanager.config.Credentials;
import org.phalanx.testkit.db.TestDatabases;

/** A database of a test's own on the local PostgreSQL or MariaDB server, dropped when closed. */
public final class ServerDatabase implements AutoCloseable {
    private final boolean postgres;
    private final String name;
    private final String url;

    private ServerDatabase(boolean postgres, String name) {
        this.postgres = postgres;
        this.name = name;
        this.url = postgres ? TestDatabases.createPostgres(name) : TestDatabases.createMariaDb(name);
    }

    /** @param engine "postgresql" or "mariadb" */
    public static ServerDatabase create(String engine, String name) {
        if (!engine.equals("postgresql") && !engine.equals("mariadb")) {
            throw new IllegalArgumentException("not a server engine: " + engine);
        }
        return new ServerDatabase(engine.equals("postgresql"), name);
    }

    public boolean isPostgres() {
        return postgres;
    }

    public String url() {
        return url;
    }

    /** The server's test login (trust auth for postgres, root without password). */
    public Credentials login() {
        return new Credentials(postgres ? "postgres" : "root", "");
    }

    @Override
    public void close() {
        if (postgres) {
            TestDatabases.dropPostgres(name);
        } else {
            TestDatabases.dropMariaDb(name);
        }
    }
}
