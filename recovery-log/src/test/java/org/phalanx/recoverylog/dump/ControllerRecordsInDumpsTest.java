package org.phalanx.recoverylog.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backend of a sub-controller holds two records of applied positions: the sub's own
 * ({@code phalanx_applied}), bookkeeping never dumped, and the one the controller above keeps in
 * the sub's virtual database ({@code phalanx_upper_applied_<vdb>}), which for the sub is data: a
 * backend the sub restores from a sibling's dump must get it back with the rows it describes.
 */
class ControllerRecordsInDumpsTest {
    @TempDir
    Path dir;

    @Test
    void aPortableDumpCarriesTheRecordOfTheControllerAboveButNotTheSubsOwn() throws Exception {
        Path dump = dir.resolve("d.zip");
        try (Connection c = Sqlite.create(dir.resolve("leaf.db"),
                "CREATE TABLE t (id INTEGER PRIMARY KEY)",
                "INSERT INTO t VALUES (1)",
                "CREATE TABLE phalanx_applied (position BIGINT NOT NULL PRIMARY KEY)",
                "INSERT INTO phalanx_applied VALUES (7)",
                "CREATE TABLE phalanx_upper_applied_sub1 (position BIGINT NOT NULL PRIMARY KEY)",
                "INSERT INTO phalanx_upper_applied_sub1 VALUES (500), (502)")) {
            DumpInfo info = new PortableBackuper().backup(c, dump, "cp", 9, Progress.NONE);
            assertEquals(List.of(new DumpInfo.TableRows("phalanx_upper_applied_sub1", 2), new DumpInfo.TableRows("t", 1)),
                    info.tables().stream().sorted(java.util.Comparator.comparing(DumpInfo.TableRows::name)).toList());
        }
        try (Connection c = Sqlite.create(dir.resolve("restored.db"))) {
            new PortableBackuper().restore(dump, c, false, Progress.NONE);
            assertEquals(List.of(List.of(500L), List.of(502L)),
                    Sqlite.query(c, "SELECT position FROM phalanx_upper_applied_sub1 ORDER BY position"));
            assertEquals(0, ((Number) Sqlite.single(c,
                    "SELECT COUNT(*) FROM sqlite_master WHERE name = 'phalanx_applied'")).intValue());
        }
    }
}
