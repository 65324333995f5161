package org.phalanx.controller.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code <recoveryLog>} element: what it becomes, its defaults, and every refusal with its position. */
class RecoveryLogConfigTest {
    private static final Pattern PROBLEM = Pattern.compile("(.+):(\\d+):(\\d+): (.+)");

    @TempDir
    Path dir;

    /** A virtual database file with one SQLite backend (line 3) and the given lines from line 4 on. */
    private Path vdb(String name, String file, String rest) {
        return ConfigFiles.write(dir, file, """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="%s">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:%s-db1.db"/></backends>
                %s</virtualDatabase>
                """.formatted(name, name, rest.indent(2)));
    }

    private Path vdb(String rest) {
        ConfigFiles.controller(dir, "demo.xml");
        return vdb("demo", "demo.xml", rest);
    }

    private RecoveryLogConfig read() throws ConfigException {
        return ControllerConfigReader.read(dir.resolve("controller.xml")).virtualDatabases().get(0).recoveryLog();
    }

    private ConfigException refused() {
        return assertThrows(ConfigException.class, () -> ControllerConfigReader.read(dir.resolve("controller.xml")));
    }

    private static void assertOnlyProblem(ConfigException e, Path file, int line, String reasonPart) {
        assertEquals(1, e.problems().size(), e.getMessage());
        assertProblem(e.problems().get(0), file, line, reasonPart);
    }

    private static void assertProblem(String problem, Path file, int line, String reasonPart) {
        Matcher m = PROBLEM.matcher(problem);
        assertTrue(m.matches(), "not file:line:column: reason -> " + problem);
        assertEquals(file.toString(), m.group(1), problem);
        assertEquals(line, Integer.parseInt(m.group(2)), problem);
        assertTrue(Integer.parseInt(m.group(3)) > 0, problem);
        assertTrue(m.group(4).contains(reasonPart), "reason should mention '" + reasonPart + "': " + problem);
    }

    @Test
    void aFileLogWithEveryAttribute() throws Exception {
        vdb("""
                <requestManager waitPolicy="all"/>
                <recoveryLog dir="state/log" enableSyncedOnStart="false" checkpointEvery="10m"
                             checkpointEveryWrites="100000" dumpDir="/var/backups/phalanx" autoEnable="30s"/>
                <cache/>
                """);
        RecoveryLogConfig log = read();
        assertTrue(log.isFileLog());
        assertEquals(dir.resolve("state/log").toAbsolutePath().normalize(), log.directory());
        assertNull(log.url());
        assertFalse(log.enableSyncedOnStart());
        assertEquals(Duration.ofMinutes(10), log.checkpointEvery());
        assertEquals(100_000, log.checkpointEveryWrites());
        assertEquals(Path.of("/var/backups/phalanx"), log.dumpDir());
        assertEquals(Duration.ofSeconds(30), log.autoEnable());
        assertEquals(6, log.location().line(), "where the start tag ends");
        assertFalse(Files.exists(dir.resolve("state")), "reading the file opens nothing");
    }

    @Test
    void aFileLogTakesTheDocumentedDefaults() throws Exception {
        vdb("<recoveryLog dir=\"log\"/>\n");
        RecoveryLogConfig log = read();
        assertEquals(dir.resolve("log").toAbsolutePath().normalize(), log.directory());
        assertTrue(log.enableSyncedOnStart());
        assertNull(log.checkpointEvery());
        assertEquals(0, log.checkpointEveryWrites());
        assertNull(log.autoEnable(), "only an operator enables a backend");
        assertEquals(dir.resolve("dumps").toAbsolutePath().normalize(), log.dumpDir());
        assertFalse(Files.exists(dir.resolve("log")), "the log is opened when the virtual database starts");
    }

    @Test
    void aJdbcLogResolvesARelativeSqlitePathLikeBackends() throws Exception {
        vdb("<recoveryLog url=\"jdbc:sqlite:logs/log.db?busy_timeout=5000\" tablePrefix=\"shop_\" user=\"u\" password=\"p\"/>\n");
        RecoveryLogConfig log = read();
        assertFalse(log.isFileLog());
        assertNull(log.directory());
        assertEquals("jdbc:sqlite:" + dir.resolve("logs/log.db").toAbsolutePath().normalize() + "?busy_timeout=5000",
                log.url());
        assertEquals("shop_", log.tablePrefix());
        assertEquals("u", log.user());
        assertEquals("p", log.password());
        assertFalse(log.toString().contains("p,") || log.toString().contains("password p"), log.toString());
        assertFalse(Files.exists(dir.resolve("logs")), "reading the file opens nothing");
    }

    @Test
    void aJdbcLogDefaultsItsPrefixAndAcceptsAnEmptyOne() throws Exception {
        vdb("<recoveryLog url=\"jdbc:postgresql://127.0.0.1/phalanx\"/>\n");
        RecoveryLogConfig log = read();
        assertEquals("jdbc:postgresql://127.0.0.1/phalanx", log.url());
        assertEquals("phalanx_", log.tablePrefix());
        assertNull(log.user());
        vdb("<recoveryLog url=\"jdbc:postgresql://127.0.0.1/phalanx\" tablePrefix=\"\"/>\n");
        assertEquals("", read().tablePrefix());
    }

    @Test
    void withoutTheElementThereIsNoLog() throws Exception {
        vdb("<requestManager/>\n");
        assertNull(read());
    }

    @Test
    void bothDirAndUrl() {
        Path file = vdb("""
                <requestManager/>
                <recoveryLog dir="log"
                             url="jdbc:sqlite:log.db"/>
                """);
        assertOnlyProblem(refused(), file, 6, "either dir (a file log) or url (a JDBC log), not both");
    }

    @Test
    void neitherDirNorUrl() {
        Path file = vdb("<recoveryLog checkpointEvery=\"1m\"/>\n");
        assertOnlyProblem(refused(), file, 4, "recoveryLog needs dir");
    }

    @Test
    void jdbcAttributesOnAFileLog() {
        Path file = vdb("""
                <recoveryLog dir="log"
                             user="sa"
                             tablePrefix="x_"/>
                """);
        ConfigException e = refused();
        assertEquals(2, e.problems().size(), e.getMessage());
        assertProblem(e.problems().get(0), file, 5, "user applies to a JDBC log (url) only");
        assertProblem(e.problems().get(1), file, 6, "tablePrefix applies to a JDBC log (url) only");
    }

    @Test
    void aTablePrefixThatIsNotAnIdentifier() {
        Path file = vdb("""
                <recoveryLog url="jdbc:sqlite:log.db"
                             tablePrefix="1-log"/>
                """);
        assertOnlyProblem(refused(), file, 5, "tablePrefix '1-log' must be a plain SQL identifier");
    }

    @Test
    void aZeroOrMalformedSchedule() {
        Path file = vdb("""
                <recoveryLog dir="log"
                             checkpointEvery="0s"/>
                """);
        assertOnlyProblem(refused(), file, 5, "checkpointEvery must be longer than 0");
        file = vdb("<recoveryLog dir=\"log\" checkpointEvery=\"10 minutes\"/>\n");
        assertOnlyProblem(refused(), file, 4, "The value '10 minutes' of attribute 'checkpointEvery'");
        file = vdb("<recoveryLog dir=\"log\" autoEnable=\"0ms\"/>\n");
        assertOnlyProblem(refused(), file, 4, "autoEnable must be longer than 0");
        file = vdb("<recoveryLog dir=\"log\" checkpointEveryWrites=\"0\"/>\n");
        assertOnlyProblem(refused(), file, 4, "The value '0' of attribute 'checkpointEveryWrites'");
        file = vdb("<recoveryLog dir=\"log\" enableSyncedOnStart=\"yes\"/>\n");
        assertOnlyProblem(refused(), file, 4, "'yes'");
    }

    @Test
    void theElementComesAfterRequestManagerAndBeforeCache() {
        Path file = vdb("""
                <cache/>
                <recoveryLog dir="log"/>
                """);
        assertOnlyProblem(refused(), file, 5, "Invalid content was found starting with element 'recoveryLog'");
        file = vdb("""
                <recoveryLog dir="log"/>
                <recoveryLog dir="log2"/>
                """);
        assertOnlyProblem(refused(), file, 5, "Invalid content was found starting with element 'recoveryLog'");
    }

    @Test
    void aFolderThatIsAFile() throws Exception {
        Files.writeString(dir.resolve("taken"), "x");
        Path file = vdb("""
                <recoveryLog dir="log"
                             dumpDir="taken"/>
                """);
        assertOnlyProblem(refused(), file, 5, "dumpDir 'taken' is a file, not a folder");
        file = vdb("<recoveryLog dir=\"log\" dumpDir=\"./log\"/>\n");
        assertOnlyProblem(refused(), file, 4, "dumpDir must not be the log's own folder");
    }

    @Test
    void aLogInsideABackendsDatabase() {
        Path file = vdb("""
                <recoveryLog
                    url="jdbc:sqlite:demo-db1.db?journal_mode=WAL"/>
                """);
        assertOnlyProblem(refused(), file, 5, "must not live in the database of backend 'db1'");
    }

    @Test
    void twoVirtualDatabasesCannotShareALogOrADumpFolder() {
        ConfigFiles.write(dir, "controller.xml", """
                <controller xmlns="urn:phalanx:controller:1">
                  <virtualDatabase file="one.xml"/>
                  <virtualDatabase file="two.xml"/>
                  <virtualDatabase file="three.xml"/>
                  <virtualDatabase file="four.xml"/>
                </controller>
                """);
        vdb("one", "one.xml", "<recoveryLog dir=\"log\" dumpDir=\"dumps-one\"/>\n");
        Path two = vdb("two", "two.xml", "<recoveryLog dir=\"./log\" dumpDir=\"dumps-two\"/>\n");
        vdb("three", "three.xml", "<recoveryLog url=\"jdbc:sqlite:log.db\" dumpDir=\"dumps-three\"/>\n");
        Path four = vdb("four", "four.xml", "<recoveryLog url=\"jdbc:sqlite:log.db\" dumpDir=\"dumps-one\"/>\n");
        ConfigException e = refused();
        assertEquals(3, e.problems().size(), e.getMessage());
        assertProblem(e.problems().get(0), two, 4, "virtual database 'two' uses the same recovery log as virtual"
                + " database 'one'");
        assertProblem(e.problems().get(1), four, 4, "virtual database 'four' uses the same recovery log as virtual"
                + " database 'three'");
        assertProblem(e.problems().get(2), four, 4, "the same dump folder");
    }

    @Test
    void twoVirtualDatabasesInOneFolderNeedTheirOwnDumpFolders() throws Exception {
        ConfigFiles.write(dir, "controller.xml", """
                <controller xmlns="urn:phalanx:controller:1">
                  <virtualDatabase file="one.xml"/>
                  <virtualDatabase file="two.xml"/>
                </controller>
                """);
        vdb("one", "one.xml", "<recoveryLog dir=\"log-one\"/>\n");
        Path two = vdb("two", "two.xml", "<recoveryLog url=\"jdbc:sqlite:log.db\" tablePrefix=\"two_\"/>\n");
        assertOnlyProblem(refused(), two, 4, "give each a dumpDir of its own");
        vdb("two", "two.xml", "<recoveryLog url=\"jdbc:sqlite:log.db\" tablePrefix=\"two_\" dumpDir=\"dumps-two\"/>\n");
        assertEquals(2, ControllerConfigReader.read(dir.resolve("controller.xml")).virtualDatabases().size());
    }
}
