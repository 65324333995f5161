package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import org.phalanx.testkit.db.SqliteFiles;

/** Checks on backend files read directly, after the controller has stopped. */
final class PhalanxClusterChecks {
    private PhalanxClusterChecks() {
    }

    static void identical(Path dir, List<String> backends, String table, String orderBy) throws SQLException {
        SqliteFiles files = new SqliteFiles(dir, backends.toArray(new String[0]));
        String expected = files.checksum(backends.get(0), table, orderBy);
        for (String b : backends.subList(1, backends.size())) {
            assertEquals(expected, files.checksum(b, table, orderBy),
                    "table " + table + " differs between " + backends.get(0) + " and " + b);
        }
    }
}
