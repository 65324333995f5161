package org.phalanx.recoverylog.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.phalanx.engine.Engine;

/** A portable dump of each engine restores onto each engine with the same rows and working identities. */
class CrossEngineDumpTest {
    @TempDir
    Path dir;

    static Stream<Arguments> pairs() {
        Engine[] engines = {Engine.SQLITE, Engine.POSTGRESQL, Engine.MARIADB};
        return Stream.of(engines).flatMap(from -> Stream.of(engines).map(to -> Arguments.of(from, to)));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void everyTypeSurvivesTheTrip(Engine from, Engine to) throws Exception {
        try (TestTarget source = TestTarget.create(from, dir, "phalanx_dump_src");
             TestTarget target = TestTarget.create(to, dir, "phalanx_dump_dst")) {
            List<String> expected;
            long sourceNext;
            Path dump = dir.resolve("dump.zip");
            try (Connection c = source.connect()) {
                Fixture.create(c, from);
                expected = Fixture.readKinds(c, from);
                c.setAutoCommit(false); // the caller's snapshot transaction
                DumpInfo info = new PortableBackuper().backup(c, dump, "cp-1", 42, Progress.NONE);
                assertEquals("portable", info.format());
                assertEquals(42, info.checkpointPosition());
                assertEquals(from, info.sourceEngine());
                assertEquals(3 + 5 + 2, info.totalRows());
                assertTrue(c.isValid(1) && !c.getAutoCommit(), "the source connection is left as it was");
                c.rollback();
                c.setAutoCommit(true);
                sourceNext = Fixture.nextParentId(c);
            }
            try (Connection c = target.connect()) {
                new PortableBackuper().restore(dump, c, false, Progress.NONE);
                assertTrue(c.getAutoCommit());
                Fixture.assertSameRows(expected, Fixture.readKinds(c, to), from + " -> " + to);
                long next = Fixture.nextParentId(c);
                // the target generates what the source would have, unless its engine cannot go below its largest key
                long expectedNext = to == Engine.POSTGRESQL || sourceNext > 10 ? sourceNext : 11;
                assertEquals(expectedNext, next, "next identity value");
                // ON DELETE CASCADE survived (DdlUtils 1.0 alone loses it)
                try (java.sql.Statement s = c.createStatement()) {
                    if (to == Engine.SQLITE) {
                        s.execute("PRAGMA foreign_keys = ON");
                    }
                    s.execute("DELETE FROM parent WHERE id = 10");
                    try (java.sql.ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM kinds WHERE parent_id = 10")) {
                        rs.next();
                        assertEquals(0, rs.getInt(1), "rows of the deleted parent cascade away");
                    }
                }
            }
        }
    }
}
