package org.phalanx.recoverylog.dump;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.phalanx.engine.Engine;
import org.phalanx.testkit.db.TestDatabases;

/** A fresh, empty database on one engine: a SQLite file, or a database of its own on a local server. */
final class TestTarget implements AutoCloseable {
    final Engine engine;
    final String url;
    private final String name;

    private TestTarget(Engine engine, String url, String name) {
        this.engine = engine;
        this.url = url;
        this.name = name;
    }

    static TestTarget create(Engine engine, Path dir, String name) {
        return switch (engine) {
            case SQLITE -> new TestTarget(engine, "jdbc:sqlite:" + dir.resolve(name + ".db"), name);
            case POSTGRESQL -> new TestTarget(engine, TestDatabases.createPostgres(name), name);
            case MARIADB -> new TestTarget(engine,
                    TestDatabases.createMariaDb(name, TestDatabases.MARIADB_BINARY_COLLATION), name);
            case PHALANX, OTHER -> throw new IllegalArgumentException();
        };
    }

    Connection connect() throws SQLException {
        return TestDatabases.connect(url);
    }

    @Override
    public void close() {
        if (engine == Engine.POSTGRESQL) {
            TestDatabases.dropPostgres(name);
        } else if (engine == Engine.MARIADB) {
            TestDatabases.dropMariaDb(name);
        }
    }

    @Override
    public String toString() {
        return engine + " " + name;
    }
}
