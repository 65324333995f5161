package org.phalanx.controller;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.recoverylog.LogEntry;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The recovery log is opened when the virtual database starts; one that cannot be opened refuses it. */
class RecoveryLogStartTest {
    @TempDir
    Path dir;

    private Controller controller(String recoveryLog) throws Exception {
        Files.writeString(dir.resolve("controller.xml"), """
                <controller xmlns="urn:phalanx:controller:1">
                  <listen port="0"/>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """);
        Files.writeString(dir.resolve("vdb.xml"), """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="vdb">
                  <users><user name="u" password="p"/></users>
                  <backends><backend name="b1" url="jdbc:sqlite:b1.db"/></backends>
                  %s
                </virtualDatabase>
                """.formatted(recoveryLog));
        return Controller.fromConfig(dir.resolve("controller.xml"));
    }

    private SQLException refused(Controller controller, String... parts) {
        SQLException e = assertThrows(SQLException.class, controller::start);
        assertEquals("58030", e.getSQLState(), e.getMessage());
        assertTrue(e.getMessage().startsWith(dir.resolve("vdb.xml") + ":4:"), "file:line:col first: " + e.getMessage());
        assertTrue(e.getMessage().contains("virtual database vdb refused: its recovery log"), e.getMessage());
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "should mention '" + part + "': " + e.getMessage());
        }
        assertThrows(IllegalStateException.class, controller::port, "nothing listens");
        controller.stop();
        return e;
    }

    @Test
    void aLogIsOpenedAtStartNotWhenTheFileIsRead() throws Exception {
        Controller controller = controller("<recoveryLog dir=\"log\"/>");
        assertFalse(Files.exists(dir.resolve("log")));
        controller.start();
        try {
            assertTrue(Files.isDirectory(dir.resolve("log")));
            assertTrue(controller.virtualDatabase("vdb").hasRecoveryLog());
        } finally {
            controller.stop();
        }
    }

    @Test
    void aCorruptFileLogRefusesTheVirtualDatabase() throws Exception {
        Path log = dir.resolve("log");
        try (FileRecoveryLog l = new FileRecoveryLog(log)) {
            for (long p = 1; p <= 3; p++) {
                l.append(LogEntry.write(p, p, "u", "INSERT INTO t VALUES (" + p + ")", List.of(), Set.of("b1")));
            }
        }
        Path segment;
        try (Stream<Path> files = Files.list(log)) {
            segment = files.filter(f -> f.getFileName().toString().startsWith("segment-")).findFirst().orElseThrow();
        }
        overwrite(segment, 0, "NOTALOG!".getBytes());
        refused(controller("<recoveryLog dir=\"log\"/>"), "file log " + log.toAbsolutePath().normalize());
    }

    @Test
    void aLogInUseByAnotherControllerRefusesTheVirtualDatabase() throws Exception {
        try (FileRecoveryLog inUse = new FileRecoveryLog(dir.resolve("log"))) {
            refused(controller("<recoveryLog dir=\"log\"/>"), "already open");
        }
    }

    @Test
    void anUnreachableLogDatabaseRefusesTheVirtualDatabase() throws Exception {
        refused(controller("<recoveryLog url=\"jdbc:postgresql://127.0.0.1:1/phalanx\" user=\"phalanx\"/>"),
                "JDBC log jdbc:postgresql://127.0.0.1:1/phalanx (tables phalanx_*)");
    }

    private static void overwrite(Path file, long offset, byte[] bytes) throws IOException {
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.wrap(bytes), offset);
        }
    }
}
