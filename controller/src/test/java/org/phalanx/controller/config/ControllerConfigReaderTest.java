package org.phalanx.controller.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.protocol.Protocol;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.BalancingPolicy;
import org.phalanx.requestmanager.config.CacheConfig;
import org.phalanx.requestmanager.config.CacheConfig.Action;
import org.phalanx.requestmanager.config.CacheConfig.Granularity;
import org.phalanx.requestmanager.config.Credentials;
import org.phalanx.requestmanager.config.DeclaredTable;
import org.phalanx.requestmanager.config.LockGranularity;
import org.phalanx.requestmanager.config.ReadRouting;
import org.phalanx.requestmanager.config.PlacementRule;
import org.phalanx.requestmanager.config.PlacementRule.Policy;
import org.phalanx.requestmanager.config.ReplicationLevel;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ControllerConfigReaderTest {
    @TempDir
    Path dir;

    @Test
    void fullConfigurationBecomesTheRightRecords() throws Exception {
        Path controller = ConfigFiles.write(dir, "controller.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="0.0.0.0" port="25400" maxFrameBytes="1048576"/>
                  <jmx address="127.0.0.1" port="1099">
                    <admin user="ops" password="pw1"/>
                    <admin user="backup" password="pw2"/>
                    <tls keyStore="keys/jmx.p12" keyStorePassword="kpw"/>
                  </jmx>
                  <virtualDatabase file="vdbs/shop.xml"/>
                  <virtualDatabase file="single.xml"/>
                </controller>
                """);
        ConfigFiles.write(dir, "vdbs/shop.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="shop" sqlDialect="postgresql">
                  <users>
                    <user name="app" password="secret"/>
                    <user name="report" password=""/>
                  </users>
                  <backends>
                    <backend name="pg" url="jdbc:postgresql://localhost/shop" driver="org.postgresql.Driver"
                             user="shop" password="pw" poolSize="20" weight="3">
                      <login virtualUser="report" user="reader" password="rpw"/>
                    </backend>
                    <backend name="lite" url="jdbc:sqlite:data/shop.db?journal_mode=WAL" maxPending="4"/>
                  </backends>
                  <requestManager replication="RAIDb-1" waitPolicy="majority" balancing="weighted-round-robin"
                                  lockGranularity="table" lockTimeout="1500ms" macroTimeZone="Europe/Paris"
                                  analysisCacheSize="500"/>
                </virtualDatabase>
                """);
        ConfigFiles.write(dir, "single.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="single">
                  <users><user name="u" password="p"/></users>
                  <backends><backend name="only" url="jdbc:sqlite::memory:"/></backends>
                  <requestManager replication="SingleDB" waitPolicy="all" balancing="least-pending"
                                  lockGranularity="database" lockTimeout="2m" readRouting="load"/>
                </virtualDatabase>
                """);

        ControllerConfig config = ControllerConfigReader.read(controller);

        assertEquals(controller.toAbsolutePath().normalize(), config.file());
        assertEquals(new ListenConfig("0.0.0.0", 25400, 1048576), config.listen());
        assertEquals(new JmxConfig("127.0.0.1", 1099, List.of(new JmxConfig.Admin("ops", "pw1"),
                new JmxConfig.Admin("backup", "pw2")), new JmxConfig.Tls(dir.resolve("keys/jmx.p12").toAbsolutePath()
                .normalize(), "kpw", "PKCS12")), config.jmx());
        assertEquals(2, config.virtualDatabases().size());

        VirtualDatabaseConfig shop = config.virtualDatabases().get(0);
        assertEquals("shop", shop.name());
        assertEquals(dir.resolve("vdbs/shop.xml").toAbsolutePath().normalize(), shop.file());
        assertEquals(List.of(new VirtualUser("app", "secret"), new VirtualUser("report", "")), shop.users());
        assertEquals(BackendConfig.builder("pg", "jdbc:postgresql://localhost/shop").driverClass("org.postgresql.Driver")
                .login("shop", "pw").logins(Map.of("report", new Credentials("reader", "rpw"))).poolSize(20).weight(3)
                .build(),
                shop.backends().get(0));
        BackendConfig lite = shop.backends().get(1);
        assertEquals("jdbc:sqlite:" + dir.resolve("vdbs/data/shop.db").toAbsolutePath().normalize()
                + "?journal_mode=WAL", lite.url());
        assertNull(lite.driverClass());
        assertEquals(new Credentials(null, null), lite.credentials());
        assertEquals(Map.of(), lite.logins());
        assertEquals(10, lite.poolSize());
        assertEquals(1, lite.weight());
        assertEquals(4, lite.maxPending());
        assertEquals(0, shop.backends().get(0).maxPending(), "no limit unless set");
        assertEquals(RequestManagerConfig.builder().waitPolicy(WaitPolicy.MAJORITY)
                .balancing(BalancingPolicy.WEIGHTED_ROUND_ROBIN).lockGranularity(LockGranularity.TABLE)
                .lockTimeout(Duration.ofMillis(1500)).macroTimeZone(ZoneId.of("Europe/Paris")).analysisCacheSize(500)
                .sqlDialect(org.phalanx.engine.Engine.POSTGRESQL).build(), shop.requestManager());

        VirtualDatabaseConfig single = config.virtualDatabases().get(1);
        assertEquals("jdbc:sqlite::memory:", single.backends().get(0).url());
        assertEquals(RequestManagerConfig.builder().replication(ReplicationLevel.SINGLE_DB)
                .waitPolicy(WaitPolicy.ALL).balancing(BalancingPolicy.LEAST_PENDING)
                .lockGranularity(LockGranularity.DATABASE).lockTimeout(Duration.ofMinutes(2))
                .readRouting(ReadRouting.LOAD).build(), single.requestManager());
    }

    @Test
    void httpElementBecomesTheRightRecordAndItsDefaults() throws Exception {
        ConfigFiles.write(dir, "demo.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                </virtualDatabase>
                """);
        Path full = ConfigFiles.write(dir, "full.xml", """
                <controller xmlns="urn:phalanx:controller:1">
                  <http address="0.0.0.0" port="9400" metrics="1" dashboard="false" metricsLogin="true">
                    <tls keyStore="keys/http.p12" keyStorePassword="kpw"/>
                  </http>
                  <virtualDatabase file="demo.xml"/>
                </controller>
                """);
        assertEquals(new HttpConfig("0.0.0.0", 9400, true, false, true, new JmxConfig.Tls(
                dir.resolve("keys/http.p12").toAbsolutePath().normalize(), "kpw", "PKCS12")),
                ControllerConfigReader.read(full).http());

        Path defaults = ConfigFiles.write(dir, "defaults.xml", """
                <controller xmlns="urn:phalanx:controller:1">
                  <http/>
                  <virtualDatabase file="demo.xml"/>
                </controller>
                """);
        assertEquals(new HttpConfig("127.0.0.1", 9322, true, true, false, null), ControllerConfigReader.read(defaults).http());

        Path none = ConfigFiles.write(dir, "none.xml", """
                <controller xmlns="urn:phalanx:controller:1">
                  <virtualDatabase file="demo.xml"/>
                </controller>
                """);
        assertNull(ControllerConfigReader.read(none).http(), "no HTTP port unless asked for");
    }

    @Test
    void leftOutElementsAndAttributesTakeTheDocumentedDefaults() throws Exception {
        Path controller = ConfigFiles.controller(dir, "demo.xml");
        ConfigFiles.write(dir, "demo.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                </virtualDatabase>
                """);

        ControllerConfig config = ControllerConfigReader.read(controller);

        assertEquals(new ListenConfig("127.0.0.1", Protocol.DEFAULT_PORT, Protocol.DEFAULT_MAX_FRAME), config.listen());
        RequestManagerConfig rm = config.virtualDatabases().get(0).requestManager();
        assertEquals(RequestManagerConfig.builder().build(), rm);
        assertEquals(ReplicationLevel.RAIDB_1, rm.replication());
        assertEquals(WaitPolicy.FIRST, rm.waitPolicy());
        assertEquals(Duration.ofSeconds(30), rm.lockTimeout());
    }

    @Test
    void relativeSqlitePathsFollowTheConfigFolderSoACopiedFolderIsAnIndependentCluster() throws Exception {
        Path original = dir.resolve("sample");
        ConfigFiles.controller(original, "demo.xml");
        ConfigFiles.write(original, "demo.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends>
                    <backend name="db1" url="jdbc:sqlite:db1.db"/>
                    <backend name="db2" url="jdbc:sqlite:../shared/db2.db"/>
                    <backend name="db3" url="jdbc:sqlite:/var/lib/phalanx/db3.db"/>
                  </backends>
                </virtualDatabase>
                """);
        Path copy = dir.resolve("elsewhere/copy");
        Files.createDirectories(copy);
        for (String f : List.of("controller.xml", "demo.xml")) {
            Files.copy(original.resolve(f), copy.resolve(f));
        }

        List<BackendConfig> fromOriginal = backends(original.resolve("controller.xml"));
        List<BackendConfig> fromCopy = backends(copy.resolve("controller.xml"));

        Path o = original.toAbsolutePath().normalize();
        assertEquals("jdbc:sqlite:" + o.resolve("db1.db"), fromOriginal.get(0).url());
        assertEquals("jdbc:sqlite:" + dir.toAbsolutePath().normalize().resolve("shared/db2.db"), fromOriginal.get(1).url());
        assertEquals("jdbc:sqlite:/var/lib/phalanx/db3.db", fromOriginal.get(2).url());
        assertEquals("jdbc:sqlite:" + copy.toAbsolutePath().normalize().resolve("db1.db"), fromCopy.get(0).url());
        assertNotEquals(fromOriginal.get(0).url(), fromCopy.get(0).url());
    }

    @Test
    void aControllerFileNamedRelativeToTheWorkingDirectoryWorksToo() throws Exception {
        Path controller = ConfigFiles.controller(dir, "demo.xml");
        ConfigFiles.write(dir, "demo.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                </virtualDatabase>
                """);
        Path relative = Path.of("").toAbsolutePath().relativize(controller.toAbsolutePath());

        ControllerConfig config = ControllerConfigReader.read(relative);

        assertTrue(config.file().isAbsolute());
        assertEquals("jdbc:sqlite:" + dir.toAbsolutePath().normalize().resolve("db1.db"),
                config.virtualDatabases().get(0).backends().get(0).url());
    }

    @Test
    void partialReplicationRulesAndDeclaredTablesBecomeTheRightRecords() throws Exception {
        Path controller = ConfigFiles.controller(dir, "shop.xml");
        Path vdb = ConfigFiles.write(dir, "shop.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="shop" sqlDialect="postgresql">
                  <users><user name="app" password="pw"/><user name="report" password="pw"/></users>
                  <backends>
                    <backend name="db1" url="jdbc:sqlite:db1.db">
                      <table name="items"/>
                      <table name="Orders"/>
                    </backend>
                    <backend name="db2" url="jdbc:postgresql://localhost/shop" user="shop">
                      <table name="items"/>
                      <login virtualUser="report" user="reader"/>
                      <table name='"Order_Lines"'/>
                      <table name="public.`Customers`"/>
                    </backend>
                    <backend name="db3" url="jdbc:sqlite:db3.db"/>
                    <backend name="db4" url="jdbc:sqlite:db4.db"/>
                    <backend name="db5" url="jdbc:sqlite:db5.db"/>
                  </backends>
                  <requestManager replication="RAIDb-2" waitPolicy="all">
                    <createTable pattern="orders|order_lines" policy="backends" backends="db1 db2"/>
                    <createTable pattern="log_.*" policy="round-robin" count="2" backends="db3 db4 db5"/>
                    <createTable pattern=" tmp_.* " policy="random" count="1"/>
                    <createTable policy="all"/>
                  </requestManager>
                </virtualDatabase>
                """);
        String f = vdb.toString();

        VirtualDatabaseConfig shop = ControllerConfigReader.read(controller).virtualDatabases().get(0);

        assertEquals(List.of(new DeclaredTable("items", f + ":5:28"), new DeclaredTable("orders", f + ":6:29")),
                shop.backends().get(0).tables());
        BackendConfig db2 = shop.backends().get(1);
        assertEquals(List.of(new DeclaredTable("items", f + ":9:28"), new DeclaredTable("order_lines", f + ":11:36"),
                new DeclaredTable("public.customers", f + ":12:41")), db2.tables());
        assertEquals(Map.of("report", new Credentials("reader", null)), db2.logins(), "logins mixed with tables");
        assertEquals(List.of(), shop.backends().get(2).tables());

        RequestManagerConfig rm = shop.requestManager();
        assertEquals(ReplicationLevel.RAIDB_2, rm.replication());
        assertEquals(WaitPolicy.ALL, rm.waitPolicy());
        assertEquals(RequestManagerConfig.builder().build().lockTimeout(), rm.lockTimeout());
        List<PlacementRule> rules = rm.placementRules();
        assertEquals(4, rules.size());
        assertRule(rules.get(0), "orders|order_lines", Policy.BACKENDS, List.of("db1", "db2"), 0, f + ":19:85");
        assertRule(rules.get(1), "log_.*", Policy.ROUND_ROBIN, List.of("db3", "db4", "db5"), 2, f + ":20:90");
        assertRule(rules.get(2), "tmp_.*", Policy.RANDOM, List.of(), 1, f + ":21:64");
        assertRule(rules.get(3), null, Policy.ALL, List.of(), 0, f + ":22:32");

        assertTrue(rules.get(0).matches("order_lines"));
        assertFalse(rules.get(0).matches("orders_archive"), "the whole name must match");
        assertTrue(rules.get(1).matches("log_2024"));
        assertTrue(rules.get(2).matches("tmp_x"));
        assertTrue(rules.get(3).matches("anything"));
    }

    @Test
    void partitioningWithOneBackendPerTable() throws Exception {
        Path controller = ConfigFiles.controller(dir, "parts.xml");
        ConfigFiles.write(dir, "parts.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="parts">
                  <users><user name="u" password="p"/></users>
                  <backends>
                    <backend name="db1" url="jdbc:sqlite:db1.db"><table name="items"/></backend>
                    <backend name="db2" url="jdbc:sqlite:db2.db"><table name="orders"/></backend>
                  </backends>
                  <requestManager replication="RAIDb-0">
                    <createTable pattern="order.*" policy="backends" backends="db2"/>
                    <createTable pattern="tmp_.*" policy="random" count="1" backends="db1 db2"/>
                    <createTable policy="round-robin" count="1"/>
                  </requestManager>
                </virtualDatabase>
                """);

        VirtualDatabaseConfig parts = ControllerConfigReader.read(controller).virtualDatabases().get(0);

        assertEquals(ReplicationLevel.RAIDB_0, parts.requestManager().replication());
        assertEquals(List.of("items"), parts.backends().get(0).tables().stream().map(DeclaredTable::name).toList());
        assertEquals(List.of("orders"), parts.backends().get(1).tables().stream().map(DeclaredTable::name).toList());
        List<PlacementRule> rules = parts.requestManager().placementRules();
        assertEquals(List.of(Policy.BACKENDS, Policy.RANDOM, Policy.ROUND_ROBIN),
                rules.stream().map(PlacementRule::policy).toList());
        assertEquals(List.of(List.of("db2"), List.of("db1", "db2"), List.of()),
                rules.stream().map(PlacementRule::backends).toList());
        assertEquals(List.of(0, 1, 1), rules.stream().map(PlacementRule::count).toList());
        assertNull(rules.get(2).pattern());
    }

    @Test
    void withoutRulesOrTablesNothingChanges() throws Exception {
        Path controller = ConfigFiles.controller(dir, "demo.xml");
        ConfigFiles.write(dir, "demo.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                  <requestManager replication="RAIDb-2"/>
                </virtualDatabase>
                """);

        VirtualDatabaseConfig demo = ControllerConfigReader.read(controller).virtualDatabases().get(0);

        assertEquals(List.of(), demo.requestManager().placementRules());
        assertEquals(List.of(), demo.backends().get(0).tables());
        assertEquals(ReplicationLevel.RAIDB_2, demo.requestManager().replication());
    }

    @Test
    void cacheElementBecomesTheRightRecord() throws Exception {
        Path controller = ConfigFiles.controller(dir, "shop.xml");
        Path vdb = ConfigFiles.write(dir, "shop.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="shop">
                  <users><user name="app" password="pw"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                  <requestManager waitPolicy="all" lockTimeout="5s"/>
                  <cache maxEntries="500" maxMemory="512KB" maxEntryRows="200" granularity="value"
                         relaxedHighWater="40" relaxedLowWater="10">
                    <rule pattern="/\\*report\\*/" action="no-caching"/>
                    <rule pattern="(?i)from\\s+categories\\b" action="relaxed" staleness="60s"/>
                    <rule pattern=" FROM items " action="eager"/>
                    <rule pattern="regions" action="relaxed"
                          staleness="1500ms"/>
                  </cache>
                </virtualDatabase>
                """);
        String f = vdb.toString();

        RequestManagerConfig rm = ControllerConfigReader.read(controller).virtualDatabases().get(0).requestManager();

        assertEquals(WaitPolicy.ALL, rm.waitPolicy(), "the requestManager element still counts");
        assertEquals(Duration.ofSeconds(5), rm.lockTimeout());
        CacheConfig cache = rm.cache();
        assertEquals(500, cache.maxEntries());
        assertEquals(512L * 1024, cache.maxMemoryBytes());
        assertEquals(200, cache.maxEntryRows());
        assertEquals(Granularity.VALUE, cache.granularity());
        assertEquals(40, cache.relaxedHighWater());
        assertEquals(10, cache.relaxedLowWater());
        List<CacheConfig.Rule> rules = cache.rules();
        assertEquals(4, rules.size());
        assertCacheRule(rules.get(0), "/\\*report\\*/", Action.NO_CACHING, null, f + ":7:55");
        assertCacheRule(rules.get(1), "(?i)from\\s+categories\\b", Action.RELAXED, Duration.ofSeconds(60),
                f + ":8:79");
        assertCacheRule(rules.get(2), "FROM items", Action.EAGER, null, f + ":9:50");
        assertCacheRule(rules.get(3), "regions", Action.RELAXED, Duration.ofMillis(1500), f + ":11:31");

        assertTrue(rules.get(0).pattern().matcher("SELECT /*report*/ count(*) FROM orders").find());
        assertTrue(rules.get(1).pattern().matcher("select name\nFROM  Categories where id = ?").find(),
                "searched anywhere in the text");
        assertFalse(rules.get(1).pattern().matcher("SELECT * FROM categories_archive").find());
    }

    @Test
    void cacheAttributesLeftOutTakeTheDefaults() throws Exception {
        Path controller = ConfigFiles.controller(dir, "demo.xml");
        ConfigFiles.write(dir, "demo.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                  <cache/>
                </virtualDatabase>
                """);

        RequestManagerConfig rm = ControllerConfigReader.read(controller).virtualDatabases().get(0).requestManager();

        assertEquals(CacheConfig.defaults(), rm.cache());
        assertEquals(10_000, rm.cache().maxEntries());
        assertEquals(64L * 1024 * 1024, rm.cache().maxMemoryBytes());
        assertEquals(1000, rm.cache().maxEntryRows());
        assertEquals(Granularity.TABLE, rm.cache().granularity());
        assertEquals(List.of(), rm.cache().rules());
        assertEquals(0, rm.cache().relaxedHighWater(), "relaxed rules apply whatever the load");
        RequestManagerConfig d = RequestManagerConfig.builder().build();
        assertEquals(d.toBuilder().cache(CacheConfig.defaults()).build(),
                rm, "everything else as without the cache");
    }

    @Test
    void sizesTakeUnits() throws Exception {
        Path controller = ConfigFiles.controller(dir, "demo.xml");
        for (var size : Map.of("1GB", 1L << 30, "64MB", 64L << 20, "3KB", 3072L, "123456", 123456L).entrySet()) {
            ConfigFiles.write(dir, "demo.xml", """
                    <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                      <users><user name="demo" password="demo"/></users>
                      <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                      <cache maxMemory="%s"/>
                    </virtualDatabase>
                    """.formatted(size.getKey()));
            assertEquals(size.getValue(), ControllerConfigReader.read(controller).virtualDatabases().get(0)
                    .requestManager().cache().maxMemoryBytes(), size.getKey());
        }
    }

    @Test
    void withoutACacheElementReadsAreNotCached() throws Exception {
        Path controller = ConfigFiles.controller(dir, "demo.xml");
        ConfigFiles.write(dir, "demo.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="demo">
                  <users><user name="demo" password="demo"/></users>
                  <backends><backend name="db1" url="jdbc:sqlite:db1.db"/></backends>
                  <requestManager balancing="least-pending"/>
                </virtualDatabase>
                """);

        RequestManagerConfig rm = ControllerConfigReader.read(controller).virtualDatabases().get(0).requestManager();

        assertNull(rm.cache());
        assertEquals(BalancingPolicy.LEAST_PENDING, rm.balancing());
    }

    private static void assertCacheRule(CacheConfig.Rule rule, String pattern, Action action, Duration staleness,
                                        String location) {
        assertEquals(pattern, rule.pattern().pattern(), rule.toString());
        assertEquals(action, rule.action(), rule.toString());
        assertEquals(staleness, rule.staleness(), rule.toString());
        assertEquals(location, rule.location(), rule.toString());
    }

    private static void assertRule(PlacementRule rule, String pattern, Policy policy, List<String> backends, int count,
                                   String location) {
        assertEquals(pattern, rule.pattern() == null ? null : rule.pattern().pattern(), rule.toString());
        assertEquals(policy, rule.policy(), rule.toString());
        assertEquals(backends, rule.backends(), rule.toString());
        assertEquals(count, rule.count(), rule.toString());
        assertEquals(location, rule.location(), rule.toString());
    }

    private static List<BackendConfig> backends(Path controller) throws ConfigException, IOException {
        return ControllerConfigReader.read(controller).virtualDatabases().get(0).backends();
    }
}
