package org.phalanx.controller.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.requestmanager.config.ReplicationLevel;
import org.phalanx.requestmanager.distribution.GroupConfig;
import org.phalanx.requestmanager.distribution.GroupMember;

/** The {@code <distribution>} element: what it becomes, its defaults, and its refusals with their positions. */
class DistributionConfigTest {
    @TempDir
    Path dir;

    private static final String MEMBERS = """
              <member name="c1" address="10.0.0.1:7800"/>
              <member name="c2" address="10.0.0.2:7800"/>
              <member name="w" address="10.0.0.3:7800" witness="true"/>
            """;

    private void vdb(String backends, String rest) {
        ConfigFiles.controller(dir, "bank.xml");
        ConfigFiles.write(dir, "bank.xml", """
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="bank">
                  <users><user name="app" password="secret"/></users>
                  <backends>%s</backends>
                %s</virtualDatabase>
                """.formatted(backends, rest.indent(2)));
    }

    private VirtualDatabaseConfig read() throws ConfigException {
        return ControllerConfigReader.read(dir.resolve("controller.xml")).virtualDatabases().get(0);
    }

    private String refusal() {
        ConfigException e = assertThrows(ConfigException.class, this::read);
        assertEquals(1, e.problems().size(), e.getMessage());
        String problem = e.problems().get(0);
        assertTrue(problem.matches(".*bank\\.xml:\\d+:\\d+: .*"), "file:line:column: reason -> " + problem);
        return problem;
    }

    @Test
    void aDataMemberWithItsDefaults() throws Exception {
        vdb("<backend name=\"db1\" url=\"jdbc:sqlite:db1.db\"/>", """
                <recoveryLog dir="log"/>
                <distribution group="bank-group" member="c2">
                %s</distribution>
                """.formatted(MEMBERS));
        DistributionConfig d = read().distribution();
        GroupConfig g = d.group();
        assertEquals("bank-group", g.groupName());
        assertEquals("c2", g.self());
        assertEquals("10.0.0.2", g.bindAddress(), "the member's own host by default");
        assertEquals(dir.resolve("group-log").toAbsolutePath().normalize(), g.logDir().toAbsolutePath().normalize());
        assertEquals(Duration.ofSeconds(5), d.appendTimeout());
        assertFalse(d.minorityReads(), "no reads while cut off from a majority, by default");
        assertEquals(List.of("c1", "c2"), g.dataMembers());
        assertFalse(d.witness());
        assertEquals(100_000, d.compactAfter(), "compacted every 100000 entries by default");
        assertEquals(Map.of(), d.standby());
    }

    @Test
    void backendsOfAnotherMemberAreStandbyAndCompactionIsSet() throws Exception {
        vdb("<backend name=\"db1\" url=\"jdbc:sqlite:db1.db\"/>"
                + "<backend name=\"c1-db1\" url=\"jdbc:sqlite:c1.db\" owner=\"c1\"/>", """
                <recoveryLog dir="log"/>
                <distribution group="bank-group" member="c2" compactAfter="0">
                %s</distribution>
                """.formatted(MEMBERS));
        DistributionConfig d = read().distribution();
        assertEquals(Map.of("c1-db1", "c1"), d.standby(), "c1's backend, which c2 can take over");
        assertEquals(0, d.compactAfter(), "compacted only when an operator asks");
    }

    @Test
    void anOwnerMustBeADataMemberAndEachMemberKeepsABackendOfItsOwn() {
        vdb("<backend name=\"db1\" url=\"jdbc:sqlite:db1.db\"/>"
                + "<backend name=\"x\" url=\"jdbc:sqlite:x.db\" owner=\"w\"/>", """
                <recoveryLog dir="log"/>
                <distribution group="g" member="c2">
                %s</distribution>
                """.formatted(MEMBERS));
        assertTrue(refusal().contains("owner 'w' is not a data member of group g"));

        vdb("<backend name=\"c1-db1\" url=\"jdbc:sqlite:c1.db\" owner=\"c1\"/>", """
                <recoveryLog dir="log"/>
                <distribution group="g" member="c2">
                %s</distribution>
                """.formatted(MEMBERS));
        assertTrue(refusal().contains("needs at least one of its own"));

        vdb("<backend name=\"db1\" url=\"jdbc:sqlite:db1.db\" owner=\"c1\"/>", "");
        assertTrue(refusal().contains("only a distributed virtual database"));
    }

    @Test
    void aWitnessHoldsNoBackendsAndNoLog() throws Exception {
        vdb("", """
                <distribution group="bank-group" member="w" bindAddress="0.0.0.0" appendTimeout="2s" minorityReads="true">
                %s</distribution>
                """.formatted(MEMBERS));
        VirtualDatabaseConfig config = read();
        assertTrue(config.distribution().witness());
        assertEquals("0.0.0.0", config.distribution().group().bindAddress());
        assertEquals(Duration.ofSeconds(2), config.distribution().appendTimeout());
        assertTrue(config.distribution().minorityReads());
    }

    @Test
    void aGroupWithAKeyStoreSpeaksTlsAndAMissingOneIsRefusedWhereItIsNamed() throws Exception {
        java.nio.file.Files.writeString(dir.resolve("group.p12"), "not read here: JGroups opens it");
        java.nio.file.Files.writeString(dir.resolve("group-pass.txt"), "s3cret\n");
        vdb("<backend name=\"db1\" url=\"jdbc:sqlite:db1.db\"/>", """
                <recoveryLog dir="log"/>
                <distribution group="bank-group" member="c2">
                %s  <tls keyStore="group.p12" keyStorePasswordFile="group-pass.txt"/>
                </distribution>
                """.formatted(MEMBERS));
        GroupConfig.Tls tls = read().distribution().group().tls();
        assertEquals(dir.resolve("group.p12").toAbsolutePath().normalize(), tls.keyStore().toAbsolutePath().normalize());
        assertEquals("s3cret", tls.password());
        assertEquals("PKCS12", tls.type());

        vdb("<backend name=\"db1\" url=\"jdbc:sqlite:db1.db\"/>", """
                <recoveryLog dir="log"/>
                <distribution group="bank-group" member="c2">
                %s  <tls keyStore="missing.p12" keyStorePassword="x"/>
                </distribution>
                """.formatted(MEMBERS));
        String problem = refusal();
        assertTrue(problem.contains("key store") && problem.contains("missing.p12"), problem);
    }

    @Test
    void aMemberMayReplicatePartiallyByItsOwnPlacementAndCompactsLikeAnyOther() throws Exception {
        vdb("<backend name=\"db1\" url=\"jdbc:sqlite:db1.db\"/><backend name=\"db2\" url=\"jdbc:sqlite:db2.db\"/>"
                + "<backend name=\"db3\" url=\"jdbc:sqlite:db3.db\"/>", """
                <requestManager replication="RAIDb-2">
                  <createTable pattern="acc" policy="backends" backends="db1 db2"/>
                  <createTable policy="round-robin" count="2"/>
                </requestManager>
                <recoveryLog dir="log"/>
                <distribution group="bank-group" member="c2">
                %s</distribution>
                """.formatted(MEMBERS));
        VirtualDatabaseConfig config = read();
        GroupMember.Settings settings = config.distribution().memberSettings(config.requestManager());
        assertEquals(ReplicationLevel.RAIDB_2, settings.replication());
        assertEquals(2, settings.placement().size(), "the member's own placement rules");
        assertEquals(List.of("db1", "db2"), settings.placement().get(0).backends());
        assertEquals(100_000, config.distribution().compactAfter(), "it dumps the union of its backends");

        vdb("<backend name=\"db1\" url=\"jdbc:sqlite:db1.db\"/><backend name=\"db2\" url=\"jdbc:sqlite:db2.db\"/>", """
                <requestManager replication="RAIDb-0"/>
                <recoveryLog dir="log"/>
                <distribution group="bank-group" member="c2">
                %s</distribution>
                """.formatted(MEMBERS));
        config = read();
        assertEquals(ReplicationLevel.RAIDB_0, config.distribution().memberSettings(config.requestManager()).replication());
    }

    @Test
    void aPartialMemberTakesOverNoBackendsOfOthers() throws Exception {
        vdb("<backend name=\"db1\" url=\"jdbc:sqlite:db1.db\"/><backend name=\"db2\" url=\"jdbc:sqlite:db2.db\"/>"
                + "<backend name=\"c1-db1\" url=\"jdbc:sqlite:c1.db\" owner=\"c1\"/>", """
                <requestManager replication="RAIDb-2"/>
                <recoveryLog dir="log"/>
                <distribution group="bank-group" member="c2">
                %s</distribution>
                """.formatted(MEMBERS));
        String problem = refusal();
        assertTrue(problem.contains("a member replicating partially (RAIDb-2) cannot take over another member's"
                + " backends"), problem);

        vdb("<backend name=\"db1\" url=\"jdbc:sqlite:db1.db\"/><backend name=\"db2\" url=\"jdbc:sqlite:db2.db\"/>", """
                <requestManager replication="RAIDb-0"/>
                <recoveryLog dir="log"/>
                <distribution group="bank-group" member="c2" compactAfter="500">
                %s</distribution>
                """.formatted(MEMBERS));
        assertEquals(500, read().distribution().compactAfter(), "compactAfter is no longer refused");
    }

    @Test
    void refusals() {
        vdb("<backend name=\"db1\" url=\"jdbc:sqlite:db1.db\"/>", """
                <distribution group="g" member="c1">
                %s</distribution>
                """.formatted(MEMBERS));
        assertTrue(refusal().contains("needs a <recoveryLog>"));

        vdb("<backend name=\"db1\" url=\"jdbc:sqlite:db1.db\"/>", """
                <recoveryLog dir="log"/>
                <distribution group="g" member="c9">
                %s</distribution>
                """.formatted(MEMBERS));
        assertTrue(refusal().contains("(c9) is not a member of group g"));

        vdb("<backend name=\"db1\" url=\"jdbc:sqlite:db1.db\"/>", """
                <distribution group="g" member="w">
                %s</distribution>
                """.formatted(MEMBERS));
        assertTrue(refusal().contains("witness of group g: it holds no backends"));

        vdb("", """
                <recoveryLog dir="log"/>
                <distribution group="g" member="c1">
                %s</distribution>
                """.formatted(MEMBERS));
        assertTrue(refusal().contains("needs at least one backend"));

        vdb("<backend name=\"db1\" url=\"jdbc:sqlite:db1.db\"/>", """
                <recoveryLog dir="log"/>
                <distribution group="g" member="c1">
                  <member name="c1" address="10.0.0.1"/>
                  <member name="c2" address="10.0.0.2:7800"/>
                  <member name="c3" address="10.0.0.3:7800"/>
                </distribution>
                """);
        assertTrue(refusal().contains("address '10.0.0.1' must be host:port"));

        vdb("<backend name=\"db1\" url=\"jdbc:sqlite:db1.db\"/>", """
                <recoveryLog dir="log"/>
                <distribution group="g" member="c1">
                  <member name="c1" address="10.0.0.1:7800"/>
                  <member name="w1" address="10.0.0.2:7800" witness="true"/>
                  <member name="w2" address="10.0.0.3:7800" witness="true"/>
                </distribution>
                """);
        assertTrue(refusal().contains("at least two members that are not witnesses"));

        vdb("<backend name=\"db1\" url=\"jdbc:sqlite:db1.db\"/>", """
                <recoveryLog dir="log"/>
                <distribution group="g" member="c1">
                  <member name="c1" address="10.0.0.1:7800"/>
                  <member name="c2" address="10.0.0.2:7800"/>
                </distribution>
                """);
        assertTrue(refusal().contains("member"), "the schema wants three members at least");
    }
}
