package org.phalanx.controller.it;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.phalanx.controller.it.EngineCluster.Kind;
import org.phalanx.testkit.db.SqliteFiles;
import org.phalanx.testkit.db.TestDatabases;

/**
 * One database of an engine reached directly, not through Phalanx: what a test runs a real client
 * against first, to compare the virtual database with. A SQLite file in {@code dir}, or a
 * PostgreSQL or MariaDB database created for the test and dropped on close.
 */
final class DirectDatabase implements ConnectionSource, AutoCloseable {
    private final Kind kind;
    private final String base;
    private final String url;

    DirectDatabase(Path dir, Kind kind, String base) {
        this.kind = kind;
        this.base = base;
        this.url = switch (kind) {
            case SQLITE -> new SqliteFiles(dir, base).url(base);
            case POSTGRESQL -> TestDatabases.createPostgres(base);
            case MARIADB -> TestDatabases.createMariaDb(base);
        };
    }

    String url() {
        return url;
    }

    @Override
    public Connection connect() throws SQLException {
        return TestDatabases.connect(url);
    }

    @Override
    public void close() {
        if (kind == Kind.POSTGRESQL) {
            TestDatabases.dropPostgres(base);
        } else if (kind == Kind.MARIADB) {
            TestDatabases.dropMariaDb(base);
        }
    }
}
