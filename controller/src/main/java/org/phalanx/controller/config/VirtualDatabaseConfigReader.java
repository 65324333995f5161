package org.phalanx.controller.config;

import org.phalanx.requestmanager.BackendConfig;
import org.phalanx.requestmanager.BalancingPolicy;
import org.phalanx.requestmanager.Credentials;
import org.phalanx.requestmanager.LockGranularity;
import org.phalanx.requestmanager.ReplicationLevel;
import org.phalanx.requestmanager.RequestManagerConfig;
import org.phalanx.requestmanager.WaitPolicy;

import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a virtual database file ({@code urn:phalanx:virtual-database:1}): validates it against
 * virtual-database.xsd, then checks what a schema cannot say well (unique names, login
 * mappings that name declared users, time zones, durations) with the position of each problem.
 */
public final class VirtualDatabaseConfigReader {
    private static final RequestManagerConfig DEFAULTS = RequestManagerConfig.defaults();
    private static final int DEFAULT_POOL_SIZE = 10;
    private static final int DEFAULT_WEIGHT = 1;

    private final XmlElement root;
    private final Path folder;
    private final ConfigProblems problems = new ConfigProblems();

    private VirtualDatabaseConfigReader(XmlElement root, Path folder) {
        this.root = root;
        this.folder = folder;
    }

    public static VirtualDatabaseConfig read(Path file) throws ConfigException {
        return read(file, file.toString());
    }

    /** @param shownAs the file name used in messages, as the user knows it */
    static VirtualDatabaseConfig read(Path file, String shownAs) throws ConfigException {
        XmlSchemaValidator.VIRTUAL_DATABASE.validate(file, shownAs);
        Path absolute = file.toAbsolutePath().normalize();
        return new VirtualDatabaseConfigReader(XmlTreeReader.read(file, shownAs), absolute.getParent())
                .build(absolute);
    }

    private VirtualDatabaseConfig build(Path file) throws ConfigException {
        List<VirtualUser> users = users(root.child("users").orElseThrow());
        List<BackendConfig> backends = backends(root.child("backends").orElseThrow(), users);
        RequestManagerConfig requestManager = root.child("requestManager")
                .map(e -> requestManager(e, backends.size()))
                .orElse(DEFAULTS);
        problems.throwIfAny();
        return new VirtualDatabaseConfig(root.required("name"), file, users, backends, requestManager);
    }

    private List<VirtualUser> users(XmlElement usersElement) {
        Map<String, ConfigLocation> seen = new HashMap<>();
        List<VirtualUser> users = new ArrayList<>();
        for (XmlElement e : usersElement.children("user")) {
            String name = e.required("name");
            ConfigLocation first = seen.putIfAbsent(name, e.location());
            if (first != null) {
                problems.add(e.location(), "duplicate user '" + name + "' (first declared at line " + first.line() + ")");
            } else {
                users.add(new VirtualUser(name, e.required("password")));
            }
        }
        return users;
    }

    private List<BackendConfig> backends(XmlElement backendsElement, List<VirtualUser> users) {
        Map<String, ConfigLocation> seen = new HashMap<>();
        List<BackendConfig> backends = new ArrayList<>();
        for (XmlElement e : backendsElement.children("backend")) {
            String name = e.required("name");
            ConfigLocation first = seen.putIfAbsent(name, e.location());
            if (first != null) {
                problems.add(e.location(), "duplicate backend name '" + name + "' (first declared at line "
                        + first.line() + ")");
                continue;
            }
            String driver = e.attribute("driver", null);
            if (driver != null && !loadable(driver.trim())) {
                problems.add(e.location(), "JDBC driver class '" + driver.trim() + "' is not on the controller's classpath");
            }
            backends.add(new BackendConfig(name,
                    SqliteUrls.resolve(e.required("url").trim(), folder),
                    driver == null ? null : driver.trim(),
                    new Credentials(e.attribute("user", null), e.attribute("password", null)),
                    logins(e, users),
                    intAttribute(e, "poolSize", DEFAULT_POOL_SIZE),
                    intAttribute(e, "weight", DEFAULT_WEIGHT)));
        }
        return backends;
    }

    private Map<String, Credentials> logins(XmlElement backend, List<VirtualUser> users) {
        Map<String, Credentials> logins = new LinkedHashMap<>();
        for (XmlElement e : backend.children("login")) {
            String virtualUser = e.required("virtualUser");
            if (users.stream().noneMatch(u -> u.name().equals(virtualUser))) {
                problems.add(e.location(), "login for unknown virtual user '" + virtualUser
                        + "' (declare it under <users>)");
            } else if (logins.containsKey(virtualUser)) {
                problems.add(e.location(), "second login for virtual user '" + virtualUser
                        + "' on backend '" + backend.required("name") + "'");
            } else {
                logins.put(virtualUser, new Credentials(e.required("user"), e.attribute("password", null)));
            }
        }
        return Map.copyOf(logins);
    }

    private RequestManagerConfig requestManager(XmlElement e, int backendCount) {
        ReplicationLevel replication = e.attributes().containsKey("replication")
                ? replication(e.required("replication").trim()) : DEFAULTS.replication();
        if (replication == ReplicationLevel.SINGLE_DB && backendCount != 1) {
            problems.add(e.location(), "replication SingleDB takes exactly one backend, found " + backendCount);
        }
        return new RequestManagerConfig(
                replication,
                e.attributes().containsKey("waitPolicy")
                        ? WaitPolicy.valueOf(constant(e.required("waitPolicy"))) : DEFAULTS.waitPolicy(),
                e.attributes().containsKey("balancing")
                        ? BalancingPolicy.valueOf(constant(e.required("balancing"))) : DEFAULTS.balancing(),
                e.attributes().containsKey("lockGranularity")
                        ? LockGranularity.valueOf(constant(e.required("lockGranularity"))) : DEFAULTS.lockGranularity(),
                lockTimeout(e),
                macroTimeZone(e),
                intAttribute(e, "analysisCacheSize", DEFAULTS.analysisCacheSize()));
    }

    private Duration lockTimeout(XmlElement e) {
        String text = e.attribute("lockTimeout", null);
        if (text == null) {
            return DEFAULTS.lockTimeout();
        }
        try {
            Duration d = Durations.parse(text);
            if (d.isZero()) {
                problems.add(e.location(), "lockTimeout must be longer than 0");
            }
            return d;
        } catch (IllegalArgumentException ex) {
            problems.add(e.location(), "lockTimeout: " + ex.getMessage());
            return DEFAULTS.lockTimeout();
        }
    }

    private ZoneId macroTimeZone(XmlElement e) {
        String zone = e.attribute("macroTimeZone", null);
        if (zone == null) {
            return DEFAULTS.macroTimeZone();
        }
        try {
            return ZoneId.of(zone.trim());
        } catch (DateTimeException ex) {
            problems.add(e.location(), "macroTimeZone '" + zone + "' is not a time zone (write e.g. UTC or Europe/Paris)");
            return DEFAULTS.macroTimeZone();
        }
    }

    /** The schema restricts these to xs:int ranges, so parsing cannot fail on a valid file. */
    private static int intAttribute(XmlElement e, String attribute, int defaultValue) {
        String text = e.attribute(attribute, null);
        return text == null ? defaultValue : Integer.parseInt(text.trim());
    }

    private static ReplicationLevel replication(String text) {
        return switch (text) {
            case "SingleDB" -> ReplicationLevel.SINGLE_DB;
            case "RAIDb-1" -> ReplicationLevel.RAIDB_1;
            default -> throw new IllegalStateException("schema let replication '" + text + "' through");
        };
    }

    /** "weighted-round-robin" to WEIGHTED_ROUND_ROBIN: the schema's enumerations mirror the enum names. */
    private static String constant(String text) {
        return text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    }

    private static boolean loadable(String className) {
        try {
            Class.forName(className, false, VirtualDatabaseConfigReader.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
