package org.phalanx.requestmanager.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigBuildersTest {

    @Test
    void aRequestManagerBuilderStartsFromTheDocumentedDefaults() {
        RequestManagerConfig c = RequestManagerConfig.builder().build();
        assertEquals(ReplicationLevel.RAIDB_1, c.replication());
        assertEquals(WaitPolicy.FIRST, c.waitPolicy());
        assertEquals(BalancingPolicy.ROUND_ROBIN, c.balancing());
        assertEquals(LockGranularity.AUTO, c.lockGranularity());
        assertEquals(Duration.ofSeconds(30), c.lockTimeout());
        assertEquals(ZoneId.of("UTC"), c.macroTimeZone());
        assertEquals(10_000, c.analysisCacheSize());
        assertEquals(List.of(), c.placementRules());
        assertNull(c.cache());
        assertNull(c.recovery());
    }

    @Test
    void toBuilderChangesOnlyWhatIsSet() {
        RequestManagerConfig c = RequestManagerConfig.builder().waitPolicy(WaitPolicy.ALL)
                .lockTimeout(Duration.ofSeconds(3)).build();
        RequestManagerConfig cached = c.toBuilder().cache(CacheConfig.defaults()).build();
        assertEquals(CacheConfig.defaults(), cached.cache());
        assertEquals(c, cached.toBuilder().cache(null).build());
    }

    @Test
    void aRequestManagerConfigThatCannotWorkIsRefused() {
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> RequestManagerConfig.builder().lockTimeout(Duration.ZERO).build()).getMessage()
                .contains("lockTimeout"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> RequestManagerConfig.builder().analysisCacheSize(0).build()).getMessage()
                .contains("analysisCacheSize"));
        assertTrue(assertThrows(NullPointerException.class,
                () -> RequestManagerConfig.builder().waitPolicy(null).build()).getMessage().contains("waitPolicy"));
    }

    @Test
    void aBackendBuilderStartsFromTheDefaults() {
        BackendConfig b = BackendConfig.builder("a", "jdbc:sqlite:a.db").build();
        assertEquals(new BackendConfig("a", "jdbc:sqlite:a.db", null, new Credentials(null, null), Map.of(), 10, 1,
                List.of(), null, List.of(), 0, HangLimits.DEFAULTS), b);
        assertEquals(b, b.toBuilder().build());
        BackendConfig pg = b.toBuilder().login("postgres", "").poolSize(3).weight(2).maxPending(7).build();
        assertEquals(new Credentials("postgres", ""), pg.credentialsFor("anyone"));
        assertEquals(List.of(3, 2, 7), List.of(pg.poolSize(), pg.weight(), pg.maxPending()));
    }

    @Test
    void aBackendThatCannotWorkIsRefusedNamingIt() {
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> BackendConfig.builder("a", "jdbc:sqlite:a.db").poolSize(0).build()).getMessage()
                .contains("poolSize of backend a"));
        assertThrows(IllegalArgumentException.class, () -> BackendConfig.builder(" ", "jdbc:sqlite:a.db").build());
        assertThrows(NullPointerException.class, () -> BackendConfig.builder("a", null).build());
        assertThrows(IllegalArgumentException.class,
                () -> BackendConfig.builder("a", "jdbc:sqlite:a.db").maxPending(-1).build());
        assertThrows(IllegalArgumentException.class, () -> new HangLimits(java.time.Duration.ofSeconds(-1), 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new HangLimits(java.time.Duration.ZERO, -1, 0));
    }

    @Test
    void configuredListsCannotChangeAfterBuilding() {
        List<PlacementRule> rules = new java.util.ArrayList<>();
        RequestManagerConfig c = RequestManagerConfig.builder().placementRules(rules).build();
        rules.add(new PlacementRule(java.util.regex.Pattern.compile("t.*"), PlacementRule.Policy.values()[0], List.of("a"), 1, null));
        assertEquals(List.of(), c.placementRules(), "the builder's list was copied");
        assertThrows(UnsupportedOperationException.class, () -> c.placementRules().add(rules.get(0)));
    }
}
