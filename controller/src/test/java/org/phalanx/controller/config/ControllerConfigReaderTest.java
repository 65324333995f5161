package org.phalanx.controller.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.protocol.Protocol;
import org.phalanx.requestmanager.BackendConfig;
import org.phalanx.requestmanager.BalancingPolicy;
import org.phalanx.requestmanager.Credentials;
import org.phalanx.requestmanager.LockGranularity;
import org.phalanx.requestmanager.ReplicationLevel;
import org.phalanx.requestmanager.RequestManagerConfig;
import org.phalanx.requestmanager.WaitPolicy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
                  <jmx address="127.0.0.1" port="1099"/>
                  <virtualDatabase file="vdbs/shop.xml"/>
                  <virtualDatabase file="single.xml"/>
                </controller>
                """);
        ConfigFiles.write(dir, "vdbs/shop.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="shop">
                  <users>
                    <user name="app" password="secret"/>
                    <user name="report" password=""/>
                  </users>
                  <backends>
                    <backend name="pg" url="jdbc:postgresql://localhost/shop" driver="org.postgresql.Driver"
                             user="shop" password="pw" poolSize="20" weight="3">
                      <login virtualUser="report" user="reader" password="rpw"/>
                    </backend>
                    <backend name="lite" url="jdbc:sqlite:data/shop.db?journal_mode=WAL"/>
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
                                  lockGranularity="database" lockTimeout="2m"/>
                </virtualDatabase>
                """);

        ControllerConfig config = ControllerConfigReader.read(controller);

        assertEquals(controller.toAbsolutePath().normalize(), config.file());
        assertEquals(new ListenConfig("0.0.0.0", 25400, 1048576), config.listen());
        assertEquals(2, config.virtualDatabases().size());

        VirtualDatabaseConfig shop = config.virtualDatabases().get(0);
        assertEquals("shop", shop.name());
        assertEquals(dir.resolve("vdbs/shop.xml").toAbsolutePath().normalize(), shop.file());
        assertEquals(List.of(new VirtualUser("app", "secret"), new VirtualUser("report", "")), shop.users());
        assertEquals(new BackendConfig("pg", "jdbc:postgresql://localhost/shop", "org.postgresql.Driver",
                new Credentials("shop", "pw"), Map.of("report", new Credentials("reader", "rpw")), 20, 3),
                shop.backends().get(0));
        BackendConfig lite = shop.backends().get(1);
        assertEquals("jdbc:sqlite:" + dir.resolve("vdbs/data/shop.db").toAbsolutePath().normalize()
                + "?journal_mode=WAL", lite.url());
        assertNull(lite.driverClass());
        assertEquals(new Credentials(null, null), lite.credentials());
        assertEquals(Map.of(), lite.logins());
        assertEquals(10, lite.poolSize());
        assertEquals(1, lite.weight());
        assertEquals(new RequestManagerConfig(ReplicationLevel.RAIDB_1, WaitPolicy.MAJORITY,
                BalancingPolicy.WEIGHTED_ROUND_ROBIN, LockGranularity.TABLE, Duration.ofMillis(1500),
                ZoneId.of("Europe/Paris"), 500), shop.requestManager());

        VirtualDatabaseConfig single = config.virtualDatabases().get(1);
        assertEquals("jdbc:sqlite::memory:", single.backends().get(0).url());
        assertEquals(new RequestManagerConfig(ReplicationLevel.SINGLE_DB, WaitPolicy.ALL,
                BalancingPolicy.LEAST_PENDING, LockGranularity.DATABASE, Duration.ofMinutes(2),
                ZoneId.of("UTC"), RequestManagerConfig.defaults().analysisCacheSize()), single.requestManager());
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
        assertEquals(RequestManagerConfig.defaults(), rm);
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

    private static List<BackendConfig> backends(Path controller) throws ConfigException, IOException {
        return ControllerConfigReader.read(controller).virtualDatabases().get(0).backends();
    }
}
