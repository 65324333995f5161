package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConnectionUrlTest {

    @Test
    void singleHostGetsTheDefaultPort() throws SQLException {
        ConnectionUrl u = ConnectionUrl.parse("jdbc:phalanx://db1/shop", null);
        assertEquals(List.of(new ConnectionUrl.HostAndPort("db1", 25322)), u.hosts());
        assertEquals("shop", u.vdb());
        assertNull(u.user());
    }

    @Test
    void severalHostsKeepTheirOrderAndPorts() throws SQLException {
        ConnectionUrl u = ConnectionUrl.parse("jdbc:phalanx://a:1000,b,[::1]:2000,[fe80::1]/vdb", null);
        assertEquals(List.of(new ConnectionUrl.HostAndPort("a", 1000), new ConnectionUrl.HostAndPort("b", 25322),
                new ConnectionUrl.HostAndPort("::1", 2000), new ConnectionUrl.HostAndPort("fe80::1", 25322)), u.hosts());
        assertEquals("[::1]:2000", u.hosts().get(2).toString());
    }

    @Test
    void connectPoliciesOrderTheHostsAndAFailedOneComesLast() throws SQLException {
        ConnectionUrl.HostAndPort a = new ConnectionUrl.HostAndPort("a", 1);
        ConnectionUrl.HostAndPort b = new ConnectionUrl.HostAndPort("b", 2);
        ConnectionUrl.HostAndPort c = new ConnectionUrl.HostAndPort("c", 3);
        ConnectionUrl ordered = ConnectionUrl.parse("jdbc:phalanx://a:1,b:2,c:3/vdb", null);
        assertEquals(List.of(a, b, c), ordered.hostsToTry(List.of()));
        assertEquals(List.of(b, c, a), ordered.hostsToTry(List.of(a)), "the controller just lost is tried last");
        assertTrue(ordered.failover(), "on by default with several hosts");
        assertFalse(ConnectionUrl.parse("jdbc:phalanx://a:1/vdb", null).failover(), "one host: nothing to fail over to");
        assertFalse(ConnectionUrl.parse("jdbc:phalanx://a:1,b:2/vdb?failover=false", null).failover());

        ConnectionUrl roundRobin = ConnectionUrl.parse("jdbc:phalanx://a:1,b:2,c:3/rr?connectPolicy=roundRobin", null);
        java.util.Set<ConnectionUrl.HostAndPort> firsts = new java.util.HashSet<>();
        for (int i = 0; i < 3; i++) {
            List<ConnectionUrl.HostAndPort> order = roundRobin.hostsToTry(List.of());
            assertEquals(3, order.size());
            firsts.add(order.get(0));
        }
        assertEquals(java.util.Set.of(a, b, c), firsts, "each host first in turn");
        assertEquals(java.util.Set.of(a, b, c), new java.util.HashSet<>(
                ConnectionUrl.parse("jdbc:phalanx://a:1,b:2,c:3/vdb?connectPolicy=random", null).hostsToTry(List.of())));

        ConnectionUrl.parse("jdbc:phalanx://a,b/vdb?readOnly=true&followerReads=current", null);
        for (String bad : List.of("connectPolicy=nearest", "failover=maybe", "followerReads=fresh")) {
            SQLException e = assertThrows(SQLException.class, () -> ConnectionUrl.parse("jdbc:phalanx://a,b/vdb?" + bad, null));
            assertEquals("08001", e.getSQLState());
        }
    }

    @Test
    void urlParametersAreDecodedAndOverrideProperties() throws SQLException {
        Properties info = new Properties();
        info.setProperty("user", "fromProps");
        info.setProperty("password", "p");
        info.setProperty("applicationName", "app");
        ConnectionUrl u = ConnectionUrl.parse(
                "jdbc:phalanx://h/vdb?user=bob&password=a+b%26c%3D&fetchSize=50&flag", info);
        assertEquals("bob", u.user());
        assertEquals("a+b&c=", u.password(), "'+' stays '+', percent escapes are decoded");
        assertEquals(50, u.intProperty(ConnectionUrl.FETCH_SIZE, 0));
        assertEquals("", u.properties().get("flag"));
        assertEquals("app", u.sessionProperties().get("applicationName"));
        assertFalse(u.sessionProperties().containsKey("password"), "credentials travel apart from the properties");
        assertFalse(u.sessionProperties().containsKey("user"));
    }

    @Test
    void userAndPasswordMayComeFromPropertiesOnly() throws SQLException {
        Properties info = new Properties();
        info.setProperty("user", "carol");
        info.setProperty("password", "pw");
        ConnectionUrl u = ConnectionUrl.parse("jdbc:phalanx://h:9/vdb", info);
        assertEquals("carol", u.user());
        assertEquals("pw", u.password());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "jdbc:phalanx:",
        "jdbc:phalanx:h/vdb",
        "jdbc:phalanx://h",
        "jdbc:phalanx://h/",
        "jdbc:phalanx:///vdb",
        "jdbc:phalanx://a,,b/vdb",
        "jdbc:phalanx://h:/vdb",
        "jdbc:phalanx://h:0/vdb",
        "jdbc:phalanx://h:65536/vdb",
        "jdbc:phalanx://h:abc/vdb",
        "jdbc:phalanx://[::1/vdb",
        "jdbc:phalanx://h/v/x",
        "jdbc:phalanx://h/vdb?%zz=1",
        "jdbc:phalanx://h/vdb?=1",
        "jdbc:phalanx://h/vdb?socketTimeout=-5",
        "jdbc:phalanx://h/vdb?connectTimeout=soon",
    })
    void malformedUrlsAreRefusedWithAClearMessage(String url) {
        SQLException e = assertThrows(SQLException.class, () -> ConnectionUrl.parse(url, null));
        assertTrue(e.getMessage().contains(url) || e.getMessage().contains("connection property"), e.getMessage());
        assertEquals("08001", e.getSQLState());
    }

    @Test
    void onlyPhalanxUrlsAreAccepted() {
        assertTrue(ConnectionUrl.accepts("jdbc:phalanx://h/vdb"));
        assertFalse(ConnectionUrl.accepts("jdbc:postgresql://h/db"));
        assertFalse(ConnectionUrl.accepts(null));
    }
}
