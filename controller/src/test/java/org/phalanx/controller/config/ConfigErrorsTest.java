package org.phalanx.controller.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every kind of bad file is refused with {@code file:line:column: reason}, pointing at the offending spot. */
class ConfigErrorsTest {
    private static final Pattern PROBLEM = Pattern.compile("(.+):(\\d+):(\\d+): (.+)");

    @TempDir
    Path dir;

    private Path vdb(String text) {
        ConfigFiles.controller(dir, "demo.xml");
        return ConfigFiles.write(dir, "demo.xml", text);
    }

    private ConfigException refused() {
        return assertThrows(ConfigException.class, () -> ControllerConfigReader.read(dir.resolve("controller.xml")));
    }

    /** Asserts the only problem is at that file and line, with a reason containing the words. */
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
    void malformedXml() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends>
                    <backend name="db1" url="jdbc:sqlite:db1.db">
                  </backends>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 5, "end-tag for element type \"backend\"");
    }

    @Test
    void unknownElement() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends>
                    <backend name="db1" url="jdbc:sqlite:db1.db"/>
                    <cache size="10"/>
                  </backends>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 5, "Invalid content was found starting with element 'cache'. One of 'backend' is expected");
    }

    @Test
    void unknownAttribute() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo" role="admin"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 2, "'role' is not allowed");
    }

    @Test
    void missingRequiredAttribute() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends>
                    <backend name="db1" url="jdbc:sqlite:db1.db"/>
                    <backend name="db2"/>
                  </backends>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 5, "Attribute 'url' must appear on element 'backend'");
    }

    @Test
    void badEnumerationValue() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                  <requestManager
                      waitPolicy="sometimes"/>
                </virtualDatabase>
                """);
        ConfigException e = refused();
        assertOnlyProblem(e, file, 5, "The value 'sometimes' of attribute 'waitPolicy' on element 'requestManager'");
        assertTrue(e.getMessage().contains("[first, majority, all]"), "names the allowed values: " + e.getMessage());
    }

    @Test
    void numbersMustBePositive() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db" poolSize="0"/></backends>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 3, "The value '0' of attribute 'poolSize' on element 'backend'");
    }

    @Test
    void badDurationSyntax() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                  <requestManager lockTimeout="30 seconds"/>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 4, "The value '30 seconds' of attribute 'lockTimeout'");
    }

    @Test
    void durationOutOfRange() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                  <requestManager
                     lockTimeout="0s"/>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 5, "lockTimeout must be longer than 0");
        vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                  <requestManager lockTimeout="99999999999999999999h"/>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 4, "too long");
    }

    @Test
    void unknownTimeZone() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                  <requestManager macroTimeZone="Mars/Olympus"/>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 4, "macroTimeZone 'Mars/Olympus' is not a time zone");
    }

    @Test
    void duplicateBackendName() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends>
                    <backend name="db1" url="jdbc:sqlite:db1.db"/>
                    <backend name="db2" url="jdbc:sqlite:db2.db"/>
                    <backend name="db1" url="jdbc:sqlite:db3.db"/>
                  </backends>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 6, "duplicate backend name 'db1' (first declared at line 4)");
    }

    @Test
    void duplicateUser() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users>
                    <user name="demo" password="demo"/>
                    <user name="demo" password="other"/>
                  </users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 4, "duplicate user 'demo'");
    }

    @Test
    void loginForUnknownVirtualUser() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends>
                    <backend name="db1" url="jdbc:postgresql://localhost/demo">
                      <login virtualUser="demo" user="app" password="x"/>
                      <login virtualUser="ghost" user="app" password="x"/>
                    </backend>
                  </backends>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 6, "login for unknown virtual user 'ghost'");
    }

    @Test
    void driverClassNotOnTheClasspath() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends>
                    <backend name="db1" url="jdbc:sqlite:db1.db" driver="org.sqlite.JDBC"/>
                    <backend name="db2" url="jdbc:oracle:thin:@h:1521/x" driver="oracle.jdbc.OracleDriver"/>
                  </backends>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 5, "'oracle.jdbc.OracleDriver' is not on the controller's classpath");
    }

    @Test
    void singleDbTakesOneBackend() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends>
                    <backend name="db1" url="jdbc:sqlite:db1.db"/>
                    <backend name="db2" url="jdbc:sqlite:db2.db"/>
                  </backends>
                  <requestManager replication="SingleDB"/>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 7, "SingleDB takes exactly one backend, found 2");
    }

    @Test
    void missingVirtualDatabaseFile() {
        Path controller = ConfigFiles.write(dir, "controller.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen port="25400"/>
                  <virtualDatabase file="missing.xml"/>
                </controller>
                """);
        assertOnlyProblem(refused(), controller, 4, "virtual database file 'missing.xml' not found");
    }

    @Test
    void sameVirtualDatabaseNameTwice() {
        Path controller = ConfigFiles.write(dir, "controller.xml", """
                <controller xmlns="urn:phalanx:controller:1">
                  <virtualDatabase file="a.xml"/>
                  <virtualDatabase file="b.xml"/>
                </controller>
                """);
        String vdb = """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                </virtualDatabase>
                """;
        ConfigFiles.write(dir, "a.xml", vdb);
        ConfigFiles.write(dir, "b.xml", vdb);
        assertOnlyProblem(refused(), controller, 3, "virtual database 'demo' is already defined by the file named at line 2");
    }

    @Test
    void controllerFileErrorsToo() {
        Path controller = ConfigFiles.write(dir, "controller.xml", """
                <controller xmlns="urn:phalanx:controller:1">
                  <listen port="70000"/>
                  <virtualDatabase file="demo.xml"/>
                </controller>
                """);
        assertOnlyProblem(refused(), controller, 2, "The value '70000' of attribute 'port' on element 'listen'");
    }

    @Test
    void controllerWithoutVirtualDatabase() {
        Path controller = ConfigFiles.write(dir, "controller.xml", """
                <controller xmlns="urn:phalanx:controller:1">
                  <listen port="25400"/>
                </controller>
                """);
        assertOnlyProblem(refused(), controller, 3, "virtualDatabase");
    }

    @Test
    void missingNamespaceIsExplained() {
        Path controller = ConfigFiles.write(dir, "controller.xml", """
                <controller>
                  <virtualDatabase file="demo.xml"/>
                </controller>
                """);
        ConfigException e = refused();
        assertProblem(e.problems().get(0), controller, 1,
                "the root element must be <controller xmlns=\"urn:phalanx:controller:1\">");
    }

    @Test
    void virtualDatabaseFileGivenWhereControllerFileIsExpected() {
        Path controller = ConfigFiles.write(dir, "controller.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                </virtualDatabase>
                """);
        assertProblem(refused().problems().get(0), controller, 1, "the root element must be <controller");
    }

    @Test
    void doctypeAndExternalEntitiesAreRefused() {
        Path secret = ConfigFiles.write(dir, "secret.txt", "top secret");
        Path controller = ConfigFiles.write(dir, "controller.xml", """
                <?xml version="1.0"?>
                <!DOCTYPE controller [ <!ENTITY leak SYSTEM "%s"> ]>
                <controller xmlns="urn:phalanx:controller:1">
                  <virtualDatabase file="&leak;"/>
                </controller>
                """.formatted(secret.toUri()));
        ConfigException e = refused();
        assertProblem(e.problems().get(0), controller, 2, "DOCTYPE is disallowed");
        assertTrue(!e.getMessage().contains("top secret"));
    }

    @Test
    void everyProblemOfEveryFileIsReportedAtOnce() {
        ConfigFiles.write(dir, "controller.xml", """
                <controller xmlns="urn:phalanx:controller:1">
                  <virtualDatabase file="a.xml"/>
                  <virtualDatabase file="b.xml"/>
                  <virtualDatabase file="c.xml"/>
                </controller>
                """);
        Path a = ConfigFiles.write(dir, "a.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="a">
                  <users><user name="u" password="p"/></users>
                  <backends>
                    <backend name="db1" url="jdbc:sqlite:a1.db"/>
                    <backend name="db1" url="jdbc:sqlite:a2.db"><login virtualUser="x" user="y"/></backend>
                  </backends>
                </virtualDatabase>
                """);
        Path b = ConfigFiles.write(dir, "b.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="b">
                  <users><user name="u"/></users>
                  <backends><backend name="db1"/></backends>
                </virtualDatabase>
                """);
        ConfigFiles.write(dir, "c.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="c">
                  <users><user name="u" password="p"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:c.db"/></backends>
                </virtualDatabase>
                """);
        List<String> problems = refused().problems();
        assertEquals(3, problems.size(), String.join("\n", problems));
        assertProblem(problems.get(0), a, 5, "duplicate backend name 'db1'");
        assertProblem(problems.get(1), b, 2, "Attribute 'password' must appear on element 'user'");
        assertProblem(problems.get(2), b, 3, "Attribute 'url' must appear on element 'backend'");
    }

    @Test
    void missingControllerFile() {
        Path missing = dir.resolve("nowhere.xml");
        ConfigException e = assertThrows(ConfigException.class, () -> ControllerConfigReader.read(missing));
        assertEquals(missing + ": no such file", e.getMessage());
    }
}
