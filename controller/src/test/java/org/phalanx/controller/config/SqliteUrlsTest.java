package org.phalanx.controller.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SqliteUrlsTest {
    private static final Path FOLDER = Path.of("/srv/phalanx/demo");

    @Test
    void relativePathsBecomeAbsoluteAgainstTheFolder() {
        assertEquals("jdbc:sqlite:/srv/phalanx/demo/db1.db", SqliteUrls.resolve("jdbc:sqlite:db1.db", FOLDER));
        assertEquals("jdbc:sqlite:/srv/phalanx/data/db1.db", SqliteUrls.resolve("jdbc:sqlite:../data/db1.db", FOLDER));
        assertEquals("jdbc:sqlite:/srv/phalanx/demo/db1.db?journal_mode=WAL&busy_timeout=5000",
                SqliteUrls.resolve("jdbc:sqlite:./db1.db?journal_mode=WAL&busy_timeout=5000", FOLDER));
    }

    @Test
    void absolutePathsInMemoryDatabasesAndOtherEnginesAreLeftAlone() {
        for (String url : new String[] {"jdbc:sqlite:/tmp/x.db", "jdbc:sqlite::memory:", "jdbc:sqlite:",
                "jdbc:sqlite::resource:db.db", "jdbc:sqlite:file:x.db?mode=memory", "jdbc:postgresql://h/db1.db",
                "jdbc:phalanx://localhost/demo"}) {
            assertEquals(url, SqliteUrls.resolve(url, FOLDER));
        }
    }
}
