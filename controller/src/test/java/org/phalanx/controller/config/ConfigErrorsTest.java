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
    void httpPortOutOfRange() {
        vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                </virtualDatabase>
                """);
        Path controller = ConfigFiles.write(dir, "controller.xml", """
                <controller xmlns="urn:phalanx:controller:1">
                  <http port="70000" metrics="yes"/>
                  <virtualDatabase file="demo.xml"/>
                </controller>
                """);
        ConfigException e = refused();
        assertEquals(2, e.problems().size(), e.getMessage());
        assertProblem(e.problems().get(0), controller, 2, "70000");
        assertProblem(e.problems().get(1), controller, 2, "yes");
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
    void maxPendingMustBePositive() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends>
                    <backend name="db1" url="jdbc:sqlite:db1.db"
                             maxPending="0"/>
                  </backends>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 5, "The value '0' of attribute 'maxPending' on element 'backend'");
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

    /** Four SQLite backends (lines 3 to 8) and the given requestManager from line 9 on. */
    private Path partial(String requestManager) {
        return vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends>
                    <backend name="db1" url="jdbc:sqlite:db1.db"/>
                    <backend name="db2" url="jdbc:sqlite:db2.db"/>
                    <backend name="db3" url="jdbc:sqlite:db3.db"/>
                    <backend name="db4" url="jdbc:sqlite:db4.db"/>
                  </backends>
                %s</virtualDatabase>
                """.formatted(requestManager.indent(2)));
    }

    @Test
    void replicationLevelsAreListed() {
        Path file = partial("""
                <requestManager replication="RAIDb-3"/>
                """);
        ConfigException e = refused();
        assertOnlyProblem(e, file, 9, "The value 'RAIDb-3' of attribute 'replication'");
        assertTrue(e.getMessage().contains("[RAIDb-0, RAIDb-1, RAIDb-2, SingleDB]"), e.getMessage());
    }

    @Test
    void placementRuleNamingAnUnknownBackend() {
        Path file = partial("""
                <requestManager replication="RAIDb-2">
                  <createTable pattern="orders" policy="backends" backends="db1 db2"/>
                  <createTable pattern="log_.*" policy="round-robin" count="1"
                               backends="db3 db9"/>
                </requestManager>
                """);
        assertOnlyProblem(refused(), file, 12, "createTable names unknown backend 'db9' (declared: db1, db2, db3, db4)");
    }

    @Test
    void roundRobinAndRandomNeedCount() {
        Path file = partial("""
                <requestManager replication="RAIDb-2">
                  <createTable pattern="log_.*" policy="round-robin"/>
                </requestManager>
                """);
        assertOnlyProblem(refused(), file, 10, "policy round-robin needs count");
        file = partial("""
                <requestManager replication="RAIDb-2">
                  <createTable pattern="log_.*" policy="round-robin" count="1"/>
                  <createTable pattern="tmp_.*" policy="random" backends="db1 db2"/>
                </requestManager>
                """);
        assertOnlyProblem(refused(), file, 11, "policy random needs count");
    }

    @Test
    void countLargerThanItsPool() {
        Path file = partial("""
                <requestManager replication="RAIDb-2">
                  <createTable pattern="log_.*" policy="round-robin" backends="db1 db2"
                               count="3"/>
                </requestManager>
                """);
        assertOnlyProblem(refused(), file, 11, "count 3 is more than the 2 backends policy round-robin chooses from");
        file = partial("""
                <requestManager replication="RAIDb-2">
                  <createTable pattern="tmp_.*" policy="random" count="5"/>
                </requestManager>
                """);
        assertOnlyProblem(refused(), file, 10, "count 5 is more than the 4 backends policy random chooses from");
    }

    @Test
    void policyBackendsNeedsBackends() {
        Path file = partial("""
                <requestManager replication="RAIDb-2">
                  <createTable pattern="orders"
                               policy="backends"/>
                </requestManager>
                """);
        assertOnlyProblem(refused(), file, 11, "policy backends needs a backends attribute");
    }

    @Test
    void attributesAPolicyWouldIgnoreAreRefused() {
        Path file = partial("""
                <requestManager replication="RAIDb-2">
                  <createTable pattern="orders" policy="backends" backends="db1" count="1"/>
                </requestManager>
                """);
        assertOnlyProblem(refused(), file, 10, "count applies to policies round-robin and random only");
        file = partial("""
                <requestManager replication="RAIDb-2">
                  <createTable policy="all" backends="db1 db2"/>
                </requestManager>
                """);
        assertOnlyProblem(refused(), file, 10, "policy all places a table on every backend; to list backends, use policy backends");
        file = partial("""
                <requestManager replication="RAIDb-2">
                  <createTable pattern="x" policy="backends" backends="db1 db2 db1"/>
                </requestManager>
                """);
        assertOnlyProblem(refused(), file, 10, "backends names the same backend twice");
    }

    @Test
    void invalidPatternIsReportedAtItsAttribute() {
        Path file = partial("""
                <requestManager replication="RAIDb-2">
                  <createTable policy="all"
                      pattern="log_(.*"
                  />
                </requestManager>
                """);
        ConfigException e = refused();
        assertOnlyProblem(e, file, 11, "pattern 'log_(.*' is not a regular expression: Unclosed group");
        assertTrue(e.problems().get(0).startsWith(file + ":11:9: "), "column of the attribute: " + e.getMessage());
    }

    @Test
    void defaultRuleMustBeLastAndAlone() {
        Path file = partial("""
                <requestManager replication="RAIDb-2">
                  <createTable policy="all"/>
                  <createTable pattern="log_.*" policy="round-robin" count="2"/>
                </requestManager>
                """);
        assertOnlyProblem(refused(), file, 10, "must be the last rule (the rule at line 11 would never be used)");
        file = partial("""
                <requestManager replication="RAIDb-2">
                  <createTable pattern="log_.*" policy="round-robin" count="2"/>
                  <createTable policy="all"/>
                  <createTable policy="random" count="2"/>
                </requestManager>
                """);
        assertOnlyProblem(refused(), file, 12, "a second default createTable rule (no pattern); the first is at line 11");
    }

    @Test
    void placementRulesAreRefusedWhereTheyWouldBeIgnored() {
        Path file = partial("""
                <requestManager replication="RAIDb-1">
                  <createTable pattern="log_.*" policy="round-robin" count="2"/>
                  <createTable policy="all"/>
                </requestManager>
                """);
        assertOnlyProblem(refused(), file, 10,
                "createTable rules apply only under replication RAIDb-0 or RAIDb-2, and replication is RAIDb-1:");
        file = partial("""
                <requestManager>
                  <createTable policy="all"/>
                </requestManager>
                """);
        assertOnlyProblem(refused(), file, 10, "replication is RAIDb-1 (the default): they would be ignored");
        file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                  <requestManager replication="SingleDB">
                    <createTable policy="all"/>
                  </requestManager>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 5, "and replication is SingleDB: they would be ignored");
    }

    @Test
    void partitioningRefusesRulesPlacingATableOnSeveralBackends() {
        Path file = partial("""
                <requestManager replication="RAIDb-0">
                  <createTable pattern="a_.*" policy="backends" backends="db1"/>
                  <createTable pattern="b_.*" policy="round-robin" count="1"/>
                  <createTable pattern="c_.*" policy="random" count="1" backends="db3 db4"/>
                  <createTable policy="all"/>
                </requestManager>
                """);
        assertOnlyProblem(refused(), file, 13, "under RAIDb-0 each table lives on one backend, but policy all places it on all 4 backends");
        file = partial("""
                <requestManager replication="RAIDb-0">
                  <createTable pattern="a_.*" policy="backends"
                               backends="db1 db2"/>
                </requestManager>
                """);
        assertOnlyProblem(refused(), file, 11, "under RAIDb-0 each table lives on one backend, but this rule places it on 2 (db1, db2)");
        file = partial("""
                <requestManager replication="RAIDb-0">
                  <createTable pattern="a_.*" policy="random" count="2"/>
                </requestManager>
                """);
        assertOnlyProblem(refused(), file, 10, "under RAIDb-0 each table lives on one backend, but count 2 places each new table on 2 backends");
    }

    @Test
    void partitioningAcceptsPolicyAllOverASingleBackend() throws Exception {
        vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                  <requestManager replication="RAIDb-0"><createTable policy="all"/></requestManager>
                </virtualDatabase>
                """);
        assertEquals(1, ControllerConfigReader.read(dir.resolve("controller.xml")).virtualDatabases().get(0)
                .requestManager().placementRules().size());
    }

    @Test
    void tableDeclaredTwiceOnOneBackend() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends>
                    <backend name="db1" url="jdbc:sqlite:db1.db">
                      <table name="items"/>
                      <table name="orders"/>
                      <table name='"Items"'/>
                    </backend>
                    <backend name="db2" url="jdbc:sqlite:db2.db"><table name="items"/></backend>
                  </backends>
                  <requestManager replication="RAIDb-2"/>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 7, "table 'items' is declared twice on backend 'db1' (first at line 5)");
    }

    @Test
    void partitionedTableDeclaredOnTwoBackends() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends>
                    <backend name="db1" url="jdbc:sqlite:db1.db">
                      <table name="items"/>
                      <table name="orders"/>
                    </backend>
                    <backend name="db2" url="jdbc:sqlite:db2.db">
                      <table name="customers"/>
                      <table name="ORDERS"/>
                    </backend>
                  </backends>
                  <requestManager replication="RAIDb-0"/>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 10,
                "under RAIDb-0 each table lives on one backend, and table 'orders' is already declared on backend 'db1' (line 6)");
    }

    @Test
    void tableElementIsChecked() {
        Path file = vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends>
                    <backend name="db1" url="jdbc:sqlite:db1.db">
                      <table/>
                    </backend>
                  </backends>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 5, "Attribute 'name' must appear on element 'table'");
    }

    /** One backend (line 3), a requestManager (line 4) and the given cache element from line 5 on. */
    private Path cached(String cache) {
        return vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                  <requestManager lockTimeout="10s"/>
                %s</virtualDatabase>
                """.formatted(cache.indent(2)));
    }

    @Test
    void cacheRulePatternMustBeARegularExpression() {
        Path file = cached("""
                <cache>
                  <rule pattern="items" action="eager"/>
                  <rule action="no-caching"
                      pattern="FROM (items"/>
                </cache>
                """);
        ConfigException e = refused();
        assertOnlyProblem(e, file, 8, "pattern 'FROM (items' is not a regular expression: Unclosed group");
        assertTrue(e.problems().get(0).startsWith(file + ":8:9: "), "column of the attribute: " + e.getMessage());
    }

    @Test
    void relaxedRuleNeedsStaleness() {
        Path file = cached("""
                <cache>
                  <rule pattern="categories" action="relaxed" staleness="60s"/>
                  <rule pattern="regions"
                        action="relaxed"/>
                </cache>
                """);
        assertOnlyProblem(refused(), file, 8, "a relaxed rule needs staleness: how old an entry it may serve");
        cached("""
                <cache>
                  <rule pattern="categories" action="relaxed" staleness="0s"/>
                </cache>
                """);
        assertOnlyProblem(refused(), file, 6, "staleness must be longer than 0");
        cached("""
                <cache>
                  <rule pattern="categories" action="relaxed" staleness="60 s"/>
                </cache>
                """);
        assertOnlyProblem(refused(), file, 6, "The value '60 s' of attribute 'staleness' on element 'rule'");
        cached("""
                <cache>
                  <rule pattern="categories" action="relaxed" staleness="99999999999999999999h"/>
                </cache>
                """);
        assertOnlyProblem(refused(), file, 6, "staleness: duration '99999999999999999999h' is too long");
    }

    @Test
    void stalenessIsRefusedOnRulesThatAreNotRelaxed() {
        Path file = cached("""
                <cache>
                  <rule pattern="categories" action="relaxed" staleness="60s"/>
                  <rule pattern="items" action="eager"
                        staleness="60s"/>
                </cache>
                """);
        ConfigException e = refused();
        assertOnlyProblem(e, file, 8,
                "staleness applies to relaxed rules only; eager entries are invalidated by writes, never served stale");
        assertTrue(e.problems().get(0).startsWith(file + ":8:11: "), "column of the attribute: " + e.getMessage());
        cached("""
                <cache>
                  <rule pattern="orders" action="no-caching" staleness="5s"/>
                </cache>
                """);
        assertOnlyProblem(refused(), file, 6, "staleness applies to relaxed rules only; no-caching reads are never cached");
    }

    @Test
    void badCacheSize() {
        Path file = cached("""
                <cache maxEntries="100"
                       maxMemory="64 MiB"/>
                """);
        ConfigException e = refused();
        assertOnlyProblem(e, file, 6, "The value '64 MiB' of attribute 'maxMemory' on element 'cache'");
        cached("""
                <cache maxMemory="0KB"/>
                """);
        assertOnlyProblem(refused(), file, 5, "maxMemory must be larger than 0");
        cached("""
                <cache
                    maxMemory="9999999999999GB"/>
                """);
        e = refused();
        assertOnlyProblem(e, file, 6, "maxMemory: size '9999999999999GB' is too large");
        assertTrue(e.problems().get(0).startsWith(file + ":6:7: "), "column of the attribute: " + e.getMessage());
        cached("""
                <cache maxEntries="0"/>
                """);
        assertOnlyProblem(refused(), file, 5, "The value '0' of attribute 'maxEntries' on element 'cache'");
        cached("""
                <cache maxEntryRows="-1"/>
                """);
        assertOnlyProblem(refused(), file, 5, "The value '-1' of attribute 'maxEntryRows' on element 'cache'");
    }

    @Test
    void waterMarksComeTogether() {
        Path file = cached("""
                <cache maxEntries="100"
                       relaxedHighWater="50">
                  <rule pattern="categories" action="relaxed" staleness="60s"/>
                </cache>
                """);
        ConfigException e = refused();
        assertOnlyProblem(e, file, 6, "relaxedHighWater needs relaxedLowWater too");
        assertTrue(e.problems().get(0).startsWith(file + ":6:10: "), "column of the attribute: " + e.getMessage());
        cached("""
                <cache relaxedLowWater="10"/>
                """);
        assertOnlyProblem(refused(), file, 5, "relaxedLowWater needs relaxedHighWater too");
        cached("""
                <cache relaxedHighWater="-1" relaxedLowWater="0"/>
                """);
        assertOnlyProblem(refused(), file, 5, "The value '-1' of attribute 'relaxedHighWater' on element 'cache'");
    }

    @Test
    void lowWaterMarkMustBeBelowTheHighOne() {
        Path file = cached("""
                <cache relaxedHighWater="20"
                       relaxedLowWater="50"/>
                """);
        ConfigException e = refused();
        assertOnlyProblem(e, file, 6, "relaxedLowWater (50) must be lower than relaxedHighWater (20)");
        assertTrue(e.problems().get(0).startsWith(file + ":6:10: "), "column of the attribute: " + e.getMessage());
        cached("""
                <cache relaxedHighWater="0" relaxedLowWater="0"/>
                """);
        assertOnlyProblem(refused(), file, 5, "relaxedLowWater (0) must be lower than relaxedHighWater (0)");
    }

    @Test
    void cacheValuesAreListedAndItsPlaceIsChecked() {
        Path file = cached("""
                <cache granularity="row"/>
                """);
        ConfigException e = refused();
        assertOnlyProblem(e, file, 5, "The value 'row' of attribute 'granularity' on element 'cache'");
        assertTrue(e.getMessage().contains("[database, table, column, value]"), e.getMessage());
        cached("""
                <cache>
                  <rule pattern="x" action="lazy"/>
                </cache>
                """);
        e = refused();
        assertOnlyProblem(e, file, 6, "The value 'lazy' of attribute 'action' on element 'rule'");
        assertTrue(e.getMessage().contains("[no-caching, eager, relaxed]"), e.getMessage());
        cached("""
                <cache>
                  <rule action="eager"/>
                </cache>
                """);
        assertOnlyProblem(refused(), file, 6, "Attribute 'pattern' must appear on element 'rule'");
        vdb("""
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                  <cache/>
                  <requestManager/>
                </virtualDatabase>
                """);
        assertOnlyProblem(refused(), file, 5, "Invalid content was found starting with element 'requestManager'");
    }

    @Test
    void everyCacheProblemIsReportedAtOnce() {
        Path file = cached("""
                <cache relaxedHighWater="5" relaxedLowWater="5">
                  <rule pattern="a(" action="eager"/>
                  <rule pattern="b" action="relaxed"/>
                  <rule pattern="c" action="eager" staleness="1s"/>
                </cache>
                """);
        List<String> problems = refused().problems();
        assertEquals(4, problems.size(), String.join("\n", problems));
        assertProblem(problems.get(0), file, 5, "relaxedLowWater (5) must be lower than relaxedHighWater (5)");
        assertProblem(problems.get(1), file, 6, "pattern 'a(' is not a regular expression");
        assertProblem(problems.get(2), file, 7, "a relaxed rule needs staleness");
        assertProblem(problems.get(3), file, 8, "staleness applies to relaxed rules only");
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
                  <users><user name="u" password="p" colour="blue"/></users>
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
        assertProblem(problems.get(1), b, 2, "Attribute 'colour' is not allowed to appear in element 'user'");
        assertProblem(problems.get(2), b, 3, "Attribute 'url' must appear on element 'backend'");
    }

    @Test
    void missingControllerFile() {
        Path missing = dir.resolve("nowhere.xml");
        ConfigException e = assertThrows(ConfigException.class, () -> ControllerConfigReader.read(missing));
        assertEquals(missing + ": no such file", e.getMessage());
    }
}
