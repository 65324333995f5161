package org.phalanx.driver;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.phalanx.protocol.Protocol;

/**
 * A parsed {@code jdbc:phalanx://host[:port][,host[:port]...]/vdbName[?key=value&...]} URL merged
 * with the caller's Properties (URL parameters win, as in pgjdbc).
 */
final class ConnectionUrl {
    static final String PREFIX = "jdbc:phalanx:";

    static final String USER = "user";
    static final String PASSWORD = "password";
    static final String CONNECT_TIMEOUT = "connectTimeout";
    static final String SOCKET_TIMEOUT = "socketTimeout";
    static final String FETCH_SIZE = "fetchSize";
    /** Which of several hosts a connection tries first: {@code ordered} (default), {@code random}, {@code roundRobin}. */
    static final String CONNECT_POLICY = "connectPolicy";
    /** Whether a connection whose controller failed goes on with another (default: when several hosts are given). */
    static final String FAILOVER = "failover";
    /**
     * How long (ms) a connection keeps trying the URL's controllers while none serves it yet: after
     * losing its controller, or while those that answer say they do not serve the virtual database
     * (a group electing its next primary).
     */
    static final String FAILOVER_TIMEOUT = "failoverTimeout";
    /**
     * The connection starts read-only (as after {@code setReadOnly(true)}); with a distributed
     * virtual database, any member of its group may serve it, the followers from their own backends.
     */
    static final String READ_ONLY = "readOnly";
    /**
     * Read-only connections served by a group's follower: {@code local} (default) reads what the
     * follower has applied; {@code current} waits, before each auto-commit read and at each
     * transaction's start, until it holds every write the group committed (sent to the controller).
     */
    static final String FOLLOWER_READS = Protocol.FOLLOWER_READS;
    /**
     * Where a read-write connection runs what its application declares read-only
     * ({@code setReadOnly(true)}): {@code primary} (default: on its own session) or {@code followers}
     * (on a read-only session of its own on another member of the URL, {@link FollowerSession}).
     */
    static final String READ_ONLY_ROUTING = "readOnlyRouting";
    static final int DEFAULT_FAILOVER_TIMEOUT_MS = 30_000;
    /** TLS to the controller ({@code true}/{@code false}, default false): its certificate verified, and its name. */
    static final String SSL = "ssl";
    /** The key store holding the certificates to trust (default: the JVM's trusted authorities). */
    static final String SSL_TRUST_STORE = "sslTrustStore";
    static final String SSL_TRUST_STORE_PASSWORD = "sslTrustStorePassword";
    static final String SSL_TRUST_STORE_TYPE = "sslTrustStoreType";
    /** The key store holding this client's certificate, for a controller that asks for one (default: none). */
    static final String SSL_KEY_STORE = "sslKeyStore";
    static final String SSL_KEY_STORE_PASSWORD = "sslKeyStorePassword";
    static final String SSL_KEY_STORE_TYPE = "sslKeyStoreType";
    /** Spreads roundRobin connections over their hosts, per host list. */
    private static final Map<String, java.util.concurrent.atomic.AtomicInteger> NEXT_HOST =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** Connect timeout when none is given: long enough for a slow network, short enough to fail over. */
    static final int DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

    record HostAndPort(String host, int port) {
        @Override
        public String toString() {
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }
    }

    private final String url;
    private final List<HostAndPort> hosts;
    private final String vdb;
    private final Map<String, String> properties;

    private ConnectionUrl(String url, List<HostAndPort> hosts, String vdb, Map<String, String> properties) {
        this.url = url;
        this.hosts = hosts;
        this.vdb = vdb;
        this.properties = properties;
    }

    static boolean accepts(String url) {
        return url != null && url.startsWith(PREFIX);
    }

    static ConnectionUrl parse(String url, Properties info) throws SQLException {
        if (!accepts(url)) {
            throw malformed(url, "it must start with " + PREFIX + "//");
        }
        String rest = url.substring(PREFIX.length());
        if (!rest.startsWith("//")) {
            throw malformed(url, "expected '//' after " + PREFIX);
        }
        rest = rest.substring(2);
        int slash = rest.indexOf('/');
        if (slash < 0) {
            throw malformed(url, "no virtual database name (expected /vdbName after the hosts)");
        }
        List<HostAndPort> hosts = parseHosts(url, rest.substring(0, slash));
        String pathAndQuery = rest.substring(slash + 1);
        int q = pathAndQuery.indexOf('?');
        String vdb = decode(url, q < 0 ? pathAndQuery : pathAndQuery.substring(0, q));
        if (vdb.isEmpty()) {
            throw malformed(url, "the virtual database name is empty");
        }
        if (vdb.indexOf('/') >= 0) {
            throw malformed(url, "the virtual database name must not contain '/'");
        }

        Map<String, String> props = new LinkedHashMap<>();
        if (info != null) {
            for (String name : info.stringPropertyNames()) {
                props.put(name, info.getProperty(name));
            }
        }
        if (q >= 0) {
            parseQuery(url, pathAndQuery.substring(q + 1), props);
        }
        ConnectionUrl parsed = new ConnectionUrl(url, List.copyOf(hosts), vdb, Collections.unmodifiableMap(props));
        // Validate numeric settings now, so a typo fails before any network traffic.
        parsed.intProperty(CONNECT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT_MS);
        parsed.intProperty(FAILOVER_TIMEOUT, DEFAULT_FAILOVER_TIMEOUT_MS);
        parsed.readOnly();
        parsed.intProperty(SOCKET_TIMEOUT, 0);
        parsed.intProperty(FETCH_SIZE, 0);
        parsed.connectPolicy();
        parsed.followerReads();
        parsed.readOnlyOnFollowers();
        parsed.failover();
        parsed.ssl();
        return parsed;
    }

    /** Checked here; the controller reads it from the session properties. */
    private void followerReads() throws SQLException {
        String value = properties.getOrDefault(FOLLOWER_READS, "local").trim();
        if (!value.equalsIgnoreCase("local") && !value.equalsIgnoreCase(Protocol.FOLLOWER_READS_CURRENT)) {
            throw SqlExceptions.create("connection property " + FOLLOWER_READS + "='" + value
                    + "' is not one of local, current", SqlExceptions.CONNECTION_FAILED);
        }
    }

    /** Whether read-only work of a read-write connection runs on a follower ({@link #READ_ONLY_ROUTING}). */
    boolean readOnlyOnFollowers() throws SQLException {
        String value = properties.getOrDefault(READ_ONLY_ROUTING, "primary").trim();
        if (!value.equalsIgnoreCase("primary") && !value.equalsIgnoreCase("followers")) {
            throw SqlExceptions.create("connection property " + READ_ONLY_ROUTING + "='" + value
                    + "' is not one of primary, followers", SqlExceptions.CONNECTION_FAILED);
        }
        return value.equalsIgnoreCase("followers");
    }

    /** This URL with some properties set (or replaced). */
    ConnectionUrl with(Map<String, String> changes) {
        Map<String, String> props = new LinkedHashMap<>(properties);
        props.putAll(changes);
        return new ConnectionUrl(url, hosts, vdb, Collections.unmodifiableMap(props));
    }

    private String connectPolicy() throws SQLException {
        String policy = properties.getOrDefault(CONNECT_POLICY, "ordered").trim();
        for (String known : List.of("ordered", "random", "roundRobin")) {
            if (known.equalsIgnoreCase(policy)) {
                return known;
            }
        }
        throw SqlExceptions.create("connection property " + CONNECT_POLICY + "='" + policy
                + "' is not one of ordered, random, roundRobin", SqlExceptions.CONNECTION_FAILED);
    }

    /** Whether the connection speaks TLS. */
    boolean ssl() throws SQLException {
        String v = properties.get(SSL);
        if (v == null || v.isBlank()) {
            return false;
        }
        if (v.trim().equalsIgnoreCase("true") || v.trim().equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(v.trim());
        }
        throw SqlExceptions.create("connection property " + SSL + "='" + v + "' is not true or false",
                SqlExceptions.CONNECTION_FAILED);
    }

    String property(String name) {
        return properties.get(name);
    }

    /** Whether a connection goes on with another controller when its own fails. */
    boolean failover() throws SQLException {
        return booleanProperty(FAILOVER, hosts.size() > 1);
    }

    boolean readOnly() throws SQLException {
        return booleanProperty(READ_ONLY, false);
    }

    private boolean booleanProperty(String name, boolean defaultValue) throws SQLException {
        String v = properties.get(name);
        if (v == null || v.isBlank()) {
            return defaultValue;
        }
        if (v.trim().equalsIgnoreCase("true") || v.trim().equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(v.trim());
        }
        throw SqlExceptions.create("connection property " + name + "='" + v + "' is not true or false",
                SqlExceptions.CONNECTION_FAILED);
    }

    /**
     * The hosts in the order a new connection tries them ({@link #CONNECT_POLICY}); {@code failed},
     * the controllers a connection just lost (oldest first), last (they may be back by then, but the
     * others first).
     */
    List<HostAndPort> hostsToTry(List<HostAndPort> failed) throws SQLException {
        List<HostAndPort> order = new ArrayList<>(hosts);
        switch (connectPolicy()) {
            case "random" -> Collections.shuffle(order);
            case "roundRobin" -> Collections.rotate(order,
                    -Math.floorMod(NEXT_HOST.computeIfAbsent(hosts.toString(), k -> new java.util.concurrent.atomic.AtomicInteger())
                            .getAndIncrement(), order.size()));
            default -> { }
        }
        for (HostAndPort host : failed) {
            if (order.remove(host)) {
                order.add(host);
            }
        }
        return order;
    }

    private static List<HostAndPort> parseHosts(String url, String hostList) throws SQLException {
        if (hostList.isEmpty()) {
            throw malformed(url, "no host given");
        }
        List<HostAndPort> hosts = new ArrayList<>();
        for (String spec : hostList.split(",", -1)) {
            String host;
            String port = null;
            if (spec.startsWith("[")) {
                // IPv6 literal: [::1] or [::1]:port
                int close = spec.indexOf(']');
                if (close < 0) {
                    throw malformed(url, "unterminated IPv6 address in '" + spec + "'");
                }
                host = spec.substring(1, close);
                String after = spec.substring(close + 1);
                if (!after.isEmpty()) {
                    if (!after.startsWith(":")) {
                        throw malformed(url, "unexpected text after IPv6 address in '" + spec + "'");
                    }
                    port = after.substring(1);
                }
            } else {
                int colon = spec.indexOf(':');
                host = colon < 0 ? spec : spec.substring(0, colon);
                port = colon < 0 ? null : spec.substring(colon + 1);
            }
            if (host.isEmpty()) {
                throw malformed(url, "empty host name in the host list '" + hostList + "'");
            }
            hosts.add(new HostAndPort(host, port == null ? Protocol.DEFAULT_PORT : parsePort(url, port)));
        }
        return hosts;
    }

    private static int parsePort(String url, String port) throws SQLException {
        try {
            int p = Integer.parseInt(port);
            if (p >= 1 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // reported below with the URL
        }
        throw malformed(url, "invalid port '" + port + "' (expected 1-65535)");
    }

    private static void parseQuery(String url, String query, Map<String, String> props) throws SQLException {
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = decode(url, eq < 0 ? pair : pair.substring(0, eq));
            if (key.isEmpty()) {
                throw malformed(url, "parameter without a name: '" + pair + "'");
            }
            props.put(key, eq < 0 ? "" : decode(url, pair.substring(eq + 1)));
        }
    }

    /** Percent-decoding only: unlike URLDecoder, '+' stays '+' (passwords contain it). */
    private static String decode(String url, String s) throws SQLException {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    throw malformed(url, "incomplete percent escape in '" + s + "'");
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw malformed(url, "invalid percent escape in '" + s + "'");
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                out.write(b, 0, b.length);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static SQLException malformed(String url, String why) {
        return SqlExceptions.create("malformed Phalanx URL '" + url + "': " + why
                + " (expected jdbc:phalanx://host[:port][,host[:port]...]/vdbName[?user=..&password=..])",
                SqlExceptions.CONNECTION_FAILED);
    }

    String url() {
        return url;
    }

    List<HostAndPort> hosts() {
        return hosts;
    }

    String vdb() {
        return vdb;
    }

    /** Every property, URL parameters and caller Properties merged. */
    Map<String, String> properties() {
        return properties;
    }

    String user() {
        return properties.get(USER);
    }

    String password() {
        return properties.get(PASSWORD);
    }

    /** What the controller receives in HELLO: every property except the credentials, which travel apart. */
    Map<String, String> sessionProperties() {
        Map<String, String> session = new LinkedHashMap<>(properties);
        session.remove(USER);
        session.remove(PASSWORD);
        return session;
    }

    int intProperty(String name, int defaultValue) throws SQLException {
        String v = properties.get(name);
        if (v == null || v.isBlank()) {
            return defaultValue;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw SqlExceptions.create("connection property " + name + "='" + v
                + "' is not a non-negative integer", SqlExceptions.CONNECTION_FAILED);
    }
}
