package org.phalanx.controller.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.requestmanager.verify.OnDifference;

/** The {@code <verification>} element: what it becomes, its defaults, and each refusal with its position. */
class VerificationConfigTest {
    private static final Pattern PROBLEM = Pattern.compile("(.+):(\\d+):(\\d+): (.+)");

    @TempDir
    Path dir;

    /** A virtual database file with one SQLite backend (line 3) and the given lines from line 4 on. */
    private Path vdb(String rest) {
        ConfigFiles.controller(dir, "demo.xml");
        return ConfigFiles.write(dir, "demo.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                %s</virtualDatabase>
                """.formatted(rest.indent(2)));
    }

    private VerificationSchedule read() throws ConfigException {
        return ControllerConfigReader.read(dir.resolve("controller.xml")).virtualDatabases().get(0).verification();
    }

    private void assertOnlyProblem(Path file, int line, String reasonPart) {
        ConfigException e = assertThrows(ConfigException.class, () -> ControllerConfigReader.read(dir.resolve("controller.xml")));
        assertEquals(1, e.problems().size(), e.getMessage());
        Matcher m = PROBLEM.matcher(e.problems().get(0));
        assertTrue(m.matches(), "not file:line:column: reason -> " + e.problems().get(0));
        assertEquals(file.toString(), m.group(1));
        assertEquals(line, Integer.parseInt(m.group(2)), e.problems().get(0));
        assertTrue(Integer.parseInt(m.group(3)) > 0);
        assertTrue(m.group(4).contains(reasonPart), "reason should mention '" + reasonPart + "': " + m.group(4));
    }

    @Test
    void everyAttribute() throws Exception {
        vdb("""
                <recoveryLog dir="log"/>
                <verification every="2h" rowsPerSecond="50000" chunkRows="500" onDifference="rebuild"
                              tables="accounts, orders items"/>
                """);
        VerificationSchedule v = read();
        assertEquals(Duration.ofHours(2), v.every());
        assertEquals(50_000, v.rowsPerSecond());
        assertEquals(500, v.chunkRows());
        assertEquals(OnDifference.REBUILD, v.onDifference());
        assertEquals(List.of("accounts", "orders", "items"), v.tables());
        assertEquals(6, v.location().line(), "where the start tag ends");
    }

    @Test
    void defaultsReportEveryTableWithoutLimit() throws Exception {
        vdb("<verification every=\"30m\"/>\n");
        VerificationSchedule v = read();
        assertEquals(Duration.ofMinutes(30), v.every());
        assertEquals(0, v.rowsPerSecond());
        assertEquals(1000, v.chunkRows());
        assertEquals(OnDifference.REPORT, v.onDifference());
        assertEquals(List.of(), v.tables());
    }

    @Test
    void noElementNoSchedule() throws Exception {
        vdb("");
        assertNull(read());
    }

    @Test
    void anUnknownActionIsRefusedByTheSchema() {
        Path file = vdb("<verification every=\"1h\" onDifference=\"repair\"/>\n");
        assertOnlyProblem(file, 4, "repair");
    }

    @Test
    void aPeriodWithoutUnitIsRefusedByTheSchema() {
        Path file = vdb("<verification every=\"60\"/>\n");
        assertOnlyProblem(file, 4, "60");
    }

    @Test
    void aZeroPeriodIsRefused() {
        Path file = vdb("<verification every=\"0s\"/>\n");
        assertOnlyProblem(file, 4, "every must be longer than 0");
    }

    @Test
    void rebuildNeedsTheRecoveryLog() {
        Path file = vdb("<verification every=\"1h\" onDifference=\"rebuild\"/>\n");
        assertOnlyProblem(file, 4, "needs a <recoveryLog>");
    }

    @Test
    void aTableNameMustBeOne() {
        Path file = vdb("<verification every=\"1h\" tables=\"items; DROP TABLE x\"/>\n");
        assertOnlyProblem(file, 4, "is not a table name");
    }
}
