package org.phalanx.controller.config;

import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.config.BackendConfig;
import org.phalanx.requestmanager.config.BalancingPolicy;
import org.phalanx.requestmanager.config.CacheConfig;
import org.phalanx.requestmanager.verify.OnDifference;
import org.phalanx.requestmanager.config.Credentials;
import org.phalanx.requestmanager.config.DeclaredTable;
import org.phalanx.requestmanager.config.DriverJar;
import org.phalanx.requestmanager.config.HangLimits;
import org.phalanx.requestmanager.config.LockGranularity;
import org.phalanx.requestmanager.config.PlacementRule;
import org.phalanx.requestmanager.config.ReadRouting;
import org.phalanx.requestmanager.config.ReplicationLevel;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.config.WaitPolicy;
import org.phalanx.requestmanager.distribution.GroupConfig;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads a virtual database file ({@code urn:phalanx:virtual-database:1}): validates it against
 * virtual-database.xsd, then checks what a schema cannot say well (unique names, login
 * mappings that name declared users, time zones, durations, table declarations, placement
 * rules that fit the replication level, cache rules and water marks, the recovery log's store
 * and schedule) with the position of each problem.
 */
public final class VirtualDatabaseConfigReader {
    /** The values of {@code sqlDialect}. */
    private static final Map<String, Engine> SQL_DIALECTS = Map.of("postgresql", Engine.POSTGRESQL,
            "mariadb", Engine.MARIADB, "sqlite", Engine.SQLITE);
    private static final RequestManagerConfig DEFAULTS = RequestManagerConfig.builder().build();
    private static final CacheConfig CACHE_DEFAULTS = CacheConfig.defaults();
    /** What {@code JdbcRecoveryLog} accepts as a table prefix. */
    private static final Pattern TABLE_PREFIX = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,40}|");

    private final XmlElement root;
    private final Path folder;
    private final ConfigProblems problems = new ConfigProblems();
    private final Secrets secrets;

    private VirtualDatabaseConfigReader(XmlElement root, Path folder) {
        this.secrets = new Secrets(folder, problems);
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
        Optional<XmlElement> requestManagerElement = root.child("requestManager");
        ReplicationLevel replication = requestManagerElement
                .map(VirtualDatabaseConfigReader::replication)
                .orElse(DEFAULTS.replication());
        List<BackendConfig> declared = backends(root.child("backends").orElseThrow(), users, replication);
        List<BackendConfig> backends = root.child("rewriting")
                .map(e -> new RewriteRulesReader(problems).attach(e, declared))
                .orElse(declared);
        RequestManagerConfig requestManager = requestManagerElement
                .map(e -> requestManager(e, replication, backends))
                .orElse(DEFAULTS);
        Engine sqlDialect = sqlDialect(backends);
        if (sqlDialect != null) {
            requestManager = requestManager.toBuilder().sqlDialect(sqlDialect).build();
        }
        CacheConfig cache = root.child("cache").map(this::cache).orElse(null);
        if (cache != null) {
            requestManager = requestManager.toBuilder().cache(cache).build();
        }
        RecoveryLogConfig recoveryLog = root.child("recoveryLog").map(e -> recoveryLog(e, backends)).orElse(null);
        DistributionConfig distribution = root.child("distribution").map(this::distribution).orElse(null);
        if (distribution == null) {
            for (XmlElement b : root.child("backends").orElseThrow().children("backend")) {
                if (b.attribute("owner", null) != null) {
                    problems.add(b.location("owner"), "owner names a member of a group: only a distributed virtual"
                            + " database (<distribution>) has backends of other members");
                }
            }
        }
        checkBackendsAndLog(distribution, backends, recoveryLog);
        if (distribution != null && replication.isPartial()) {
            partialMember(replication);
        }
        VerificationSchedule verification = root.child("verification").map(e -> verification(e, recoveryLog)).orElse(null);
        problems.throwIfAny();
        return new VirtualDatabaseConfig(root.required("name"), file, users, backends, requestManager, recoveryLog,
                distribution, verification);
    }

    /**
     * A member replicating partially places each table on some of its backends by its own rules
     * (docs/distribution.md, Partial replication in a group): another member's backends, placed by
     * that member's rules, are not its to take over.
     */
    private void partialMember(ReplicationLevel replication) {
        String level = replicationText(replication);
        for (XmlElement b : root.child("backends").orElseThrow().children("backend")) {
            if (b.attribute("owner", null) != null) {
                problems.add(b.location("owner"), "a member replicating partially (" + level + ") cannot take over"
                        + " another member's backends: their tables are placed by that member's rules; declare"
                        + " backends of other members only with replication=\"RAIDb-1\" or SingleDB");
            }
        }
    }

    /**
     * The declared SQL dialect: required when the backends' URLs name different engines (another
     * controller's, known only once connected, does not count); else null, the backends' own.
     */
    private Engine sqlDialect(List<BackendConfig> backends) {
        Set<Engine> engines = new TreeSet<>();
        for (BackendConfig b : backends) {
            Engine e = Engine.ofUrl(b.url());
            if (SQL_DIALECTS.containsValue(e)) {
                engines.add(e);
            }
        }
        String declared = root.attribute("sqlDialect", null);
        if (declared != null) {
            return SQL_DIALECTS.get(declared);
        }
        if (engines.size() > 1) {
            problems.add(root.location(), "the backends run different engines (" + engines.stream()
                    .map(e -> e.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "))
                    + "): declare the SQL dialect applications write in, sqlDialect=\"postgresql\", \"mariadb\""
                    + " or \"sqlite\"; statements are translated from it for the other engines");
            return null;
        }
        return null; // one engine: its own dialect, nothing translated
    }

    /** A witness holds no backends and no log; every other virtual database needs backends, and a distributed one a log. */
    private void checkBackendsAndLog(DistributionConfig distribution, List<BackendConfig> backends,
                                     RecoveryLogConfig recoveryLog) {
        XmlElement backendsElement = root.child("backends").orElseThrow();
        if (distribution != null && distribution.witness()) {
            if (!backends.isEmpty()) {
                problems.add(backendsElement.location(), "this controller is a witness of group "
                        + distribution.group().groupName() + ": it holds no backends (leave <backends/> empty)");
            }
            if (recoveryLog != null) {
                problems.add(root.child("recoveryLog").orElseThrow().location(), "a witness keeps no recovery log");
            }
        } else if (backends.isEmpty()) {
            problems.add(backendsElement.location(), "a virtual database needs at least one backend");
        } else if (distribution != null && recoveryLog == null) {
            problems.add(root.child("distribution").orElseThrow().location(), "a distributed virtual database needs a"
                    + " <recoveryLog>: it holds this controller's copy of the group's log");
        }
    }

    /**
     * The backends of other data members this one declares ({@code owner}), to take over when their
     * owner is gone; this member keeps at least one of its own.
     */
    private Map<String, String> standby(GroupConfig group) {
        Map<String, String> standby = new LinkedHashMap<>();
        XmlElement backendsElement = root.child("backends").orElseThrow();
        int own = 0;
        for (XmlElement b : backendsElement.children("backend")) {
            String owner = b.attribute("owner", null);
            if (owner == null || owner.trim().equals(group.self())) {
                own++;
            } else if (!group.dataMembers().contains(owner.trim())) {
                problems.add(b.location("owner"), "owner '" + owner.trim() + "' is not a data member of group "
                        + group.groupName() + " " + group.dataMembers());
            } else {
                standby.put(b.required("name"), owner.trim());
            }
        }
        if (own == 0 && !standby.isEmpty()) {
            problems.add(backendsElement.location(), "every backend is another member's (owner): this controller"
                    + " needs at least one of its own");
        }
        return standby;
    }

    /** The group: unique member names, this controller among them, host:port addresses, at least three members. */
    private DistributionConfig distribution(XmlElement e) {
        List<GroupConfig.Member> members = new ArrayList<>();
        boolean badAddress = false;
        for (XmlElement m : e.children("member")) {
            String address = m.required("address").trim();
            int colon = address.lastIndexOf(':');
            int port = -1;
            try {
                port = colon <= 0 ? -1 : Integer.parseInt(address.substring(colon + 1));
            } catch (NumberFormatException ignored) {
                // reported below
            }
            if (port < 1 || port > 65535) {
                problems.add(m.location("address"), "address '" + address + "' must be host:port (the port of this"
                        + " member's copy of the group's log)");
                badAddress = true;
                continue;
            }
            String witness = m.attribute("witness", "false").trim();
            members.add(new GroupConfig.Member(m.required("name"), address.substring(0, colon), port,
                    witness.equals("true") || witness.equals("1")));
        }
        String self = e.required("member");
        Duration timeout = Duration.ofSeconds(5);
        if (e.attributes().containsKey("appendTimeout")) {
            try {
                timeout = Durations.parse(e.required("appendTimeout"));
            } catch (IllegalArgumentException ex) {
                problems.add(e.location("appendTimeout"), "appendTimeout: " + ex.getMessage());
            }
        }
        Path logDir = e.attributes().containsKey("logDir") ? folderPath(e, "logDir") : folder.resolve("group-log");
        String bind = e.attribute("bindAddress", null);
        if (badAddress) {
            return null;
        }
        try {
            String host = members.stream().filter(m -> m.raftId().equals(self)).map(GroupConfig.Member::host)
                    .findFirst().orElse("127.0.0.1");
            GroupConfig group = new GroupConfig(e.required("group"), self, members, bind == null ? host : bind.trim(),
                    logDir, e.child("tls").map(this::groupTls).orElse(null));
            if (group.dataMembers().size() < 2) {
                problems.add(e.location(), "group " + group.groupName() + " needs at least two members that are not"
                        + " witnesses");
            }
            String minorityReads = e.attribute("minorityReads", "false").trim();
            long compactAfter = DistributionConfig.COMPACT_AFTER;
            try {
                compactAfter = Long.parseLong(e.attribute("compactAfter", String.valueOf(compactAfter)).trim());
            } catch (NumberFormatException ex) {
                problems.add(e.location("compactAfter"), "compactAfter must be a number of log entries (0: never)");
            }
            return new DistributionConfig(group, timeout, minorityReads.equals("true") || minorityReads.equals("1"),
                    compactAfter, standby(group));
        } catch (IllegalArgumentException ex) {
            problems.add(e.location(), ex.getMessage());
            return null;
        }
    }

    /**
     * The recovery log: exactly one of dir (file log) and url (JDBC log), JDBC-only attributes
     * only with url, a table prefix the log accepts, a schedule longer than 0; paths against the
     * file's folder. Nothing is opened here.
     */
    private RecoveryLogConfig recoveryLog(XmlElement e, List<BackendConfig> backends) {
        boolean hasDir = e.attributes().containsKey("dir");
        boolean hasUrl = e.attributes().containsKey("url");
        Path dir = null;
        String url = null;
        if (hasDir && hasUrl) {
            problems.add(e.location(), "recoveryLog takes either dir (a file log) or url (a JDBC log), not both");
        } else if (!hasDir && !hasUrl) {
            problems.add(e.location(), "recoveryLog needs dir (the folder of a file log, e.g. dir=\"log\") or url"
                    + " (the JDBC database holding the log tables)");
        } else if (hasDir) {
            dir = folderPath(e, "dir");
            for (String jdbcOnly : List.of("user", "password", "passwordFile", "tablePrefix")) {
                if (e.attributes().containsKey(jdbcOnly)) {
                    problems.add(e.location(jdbcOnly), jdbcOnly + " applies to a JDBC log (url) only, not to a file"
                            + " log (dir)");
                }
            }
        } else {
            url = SqliteUrls.resolve(e.required("url").trim(), folder);
            for (BackendConfig b : backends) {
                if (withoutQuery(b.url()).equals(withoutQuery(url))) {
                    problems.add(e.location("url"), "the recovery log must not live in the database of backend '"
                            + b.name() + "': dumps and restores of that backend would carry the log with them");
                }
            }
        }
        String prefix = e.attribute("tablePrefix", RecoveryLogConfig.DEFAULT_TABLE_PREFIX).trim();
        if (!TABLE_PREFIX.matcher(prefix).matches()) {
            problems.add(e.location("tablePrefix"), "tablePrefix '" + prefix + "' must be a plain SQL identifier"
                    + " (letters, digits and '_', not starting with a digit, at most 41 characters) or empty");
        }
        Duration every = positiveDuration(e, "checkpointEvery", "timed checkpoints");
        Duration autoEnable = positiveDuration(e, "autoEnable", "enabling backends automatically");
        String writes = e.attribute("checkpointEveryWrites", null);
        String enable = e.attribute("enableSyncedOnStart", "true").trim();
        Path dumpDir = e.attributes().containsKey("dumpDir")
                ? folderPath(e, "dumpDir")
                : folder.resolve(RecoveryLogConfig.DEFAULT_DUMP_DIR);
        if (dir != null && dir.equals(dumpDir)) {
            problems.add(e.location("dumpDir"), "dumpDir must not be the log's own folder (" + dir + ")");
        }
        return new RecoveryLogConfig(dir, url,
                hasUrl ? e.attribute("user", null) : null,
                hasUrl ? secrets.of(e, "password") : null,
                prefix,
                enable.equals("true") || enable.equals("1"),
                every,
                writes == null ? 0 : Long.parseLong(writes.trim()),
                dumpDir,
                autoEnable,
                e.location());
    }

    /** A duration attribute longer than 0, or null when absent (what it is for is then not done). */
    private Duration positiveDuration(XmlElement e, String attribute, String forWhat) {
        if (!e.attributes().containsKey(attribute)) {
            return null;
        }
        try {
            Duration d = Durations.parse(e.required(attribute));
            if (d.isZero()) {
                problems.add(e.location(attribute), attribute + " must be longer than 0 (leave it out for no "
                        + forWhat + ")");
            }
            return d;
        } catch (IllegalArgumentException ex) {
            problems.add(e.location(attribute), attribute + ": " + ex.getMessage());
            return null;
        }
    }

    /**
     * The verification schedule: a period longer than 0, distinct table names; rebuilding needs the
     * recovery log (it restores a dump and replays the log).
     */
    private VerificationSchedule verification(XmlElement e, RecoveryLogConfig recoveryLog) {
        Duration every = Duration.ofHours(1);
        try {
            every = Durations.parse(e.required("every"));
            if (every.isZero()) {
                problems.add(e.location("every"), "every must be longer than 0 (leave <verification> out for no"
                        + " scheduled verification)");
                every = Duration.ofHours(1);
            }
        } catch (IllegalArgumentException ex) {
            problems.add(e.location("every"), "every: " + ex.getMessage());
        }
        OnDifference onDifference = OnDifference.of(e.attribute("onDifference", "report"));
        if (onDifference == OnDifference.REBUILD && recoveryLog == null) {
            problems.add(e.location("onDifference"), "onDifference=\"rebuild\" needs a <recoveryLog>: a rebuild restores"
                    + " a dump of a majority replica and replays the log from it (use report or disable)");
        }
        String tablesText = e.attribute("tables", "").trim();
        List<String> tables = tablesText.isEmpty() ? List.of()
                : Arrays.stream(tablesText.split("[\\s,]+")).filter(t -> !t.isEmpty()).distinct().toList();
        for (String t : tables) {
            if (!t.matches("[A-Za-z_][A-Za-z0-9_$.]*")) {
                problems.add(e.location("tables"), "tables: '" + t + "' is not a table name");
            }
        }
        return new VerificationSchedule(every, intAttribute(e, "rowsPerSecond", 0),
                intAttribute(e, "chunkRows", org.phalanx.requestmanager.verify.VerificationRequest.DEFAULT_CHUNK_ROWS),
                onDifference, tables, e.location());
    }

    /** The group's key store, which must be readable here (a member that cannot read it would never join). */
    private GroupConfig.Tls groupTls(XmlElement t) {
        Path keyStore = folder.resolve(t.required("keyStore").trim()).normalize();
        if (!Files.isReadable(keyStore)) {
            problems.add(t.location("keyStore"), "the group's key store " + keyStore + " cannot be read");
        }
        String password = secrets.of(t, "keyStorePassword");
        return new GroupConfig.Tls(keyStore, password == null ? "" : password, t.attribute("keyStoreType", "PKCS12").trim());
    }

    /** A folder attribute resolved against this file's folder; refused if it names something that is not a folder. */
    private Path folderPath(XmlElement e, String attribute) {
        String text = e.required(attribute).trim();
        try {
            Path path = folder.resolve(text).normalize();
            if (Files.exists(path) && !Files.isDirectory(path)) {
                problems.add(e.location(attribute), attribute + " '" + text + "' is a file, not a folder (" + path + ")");
            }
            return path;
        } catch (InvalidPathException ex) {
            problems.add(e.location(attribute), attribute + " '" + text + "' is not a folder path: " + ex.getReason());
            return null;
        }
    }

    private static String withoutQuery(String url) {
        int query = url.indexOf('?');
        return query < 0 ? url : url.substring(0, query);
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
                String hash = e.attribute("passwordHash", null);
                if (hash != null) {
                    if (Secrets.given(e, "password")) {
                        problems.add(e.location("passwordHash"), "user '" + name + "': give password, passwordFile or"
                                + " passwordHash, one of them");
                        continue;
                    }
                    try {
                        PasswordHash.parse(hash);
                    } catch (IllegalArgumentException bad) {
                        problems.add(e.location("passwordHash"), "user '" + name + "': " + bad.getMessage());
                        continue;
                    }
                    users.add(new VirtualUser(name, null, hash.trim()));
                    continue;
                }
                if (!Secrets.given(e, "password")) {
                    problems.add(e.location(), "user '" + name + "' needs password, passwordFile or passwordHash");
                    continue;
                }
                String password = secrets.of(e, "password");
                users.add(new VirtualUser(name, password == null ? "" : password));
            }
        }
        return users;
    }

    private List<BackendConfig> backends(XmlElement backendsElement, List<VirtualUser> users,
                                         ReplicationLevel replication) {
        Map<String, ConfigLocation> seen = new HashMap<>();
        // under RAIDb-0: each declared table to the backend that holds it and where it is declared
        Map<String, Map.Entry<String, ConfigLocation>> partitioned = new HashMap<>();
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
            Path driverJar = driverJar(e);
            if (driverJar != null) {
                if (driver != null && !DriverJar.holds(driverJar, driver.trim())) {
                    problems.add(e.location("driver"), "JDBC driver class '" + driver.trim() + "' is not in " + driverJar);
                }
            } else if (driver != null && !loadable(driver.trim())) {
                problems.add(e.location(), "JDBC driver class '" + driver.trim() + "' is not on the controller's classpath");
            }
            backends.add(BackendConfig.builder(name, SqliteUrls.resolve(e.required("url").trim(), folder))
                    .driverClass(driver == null ? null : driver.trim())
                    .login(e.attribute("user", null), secrets.of(e, "password"))
                    .logins(logins(e, users))
                    .poolSize(intAttribute(e, "poolSize", BackendConfig.DEFAULT_POOL_SIZE))
                    .weight(intAttribute(e, "weight", BackendConfig.DEFAULT_WEIGHT))
                    .tables(tables(e, name, replication, partitioned))
                    .driverJar(driverJar)
                    .maxPending(intAttribute(e, "maxPending", 0))
                    .limits(hangLimits(e))
                    .build());
        }
        return backends;
    }

    /** The driverJar attribute against this file's folder; refused if it is not a readable file. */
    private Path driverJar(XmlElement e) {
        String text = e.attribute("driverJar", null);
        if (text == null) {
            return null;
        }
        try {
            Path jar = folder.resolve(text.trim()).normalize();
            if (!Files.isRegularFile(jar) || !Files.isReadable(jar)) {
                problems.add(e.location("driverJar"), "driver jar " + jar + " is not a readable file");
                return null;
            }
            return jar;
        } catch (InvalidPathException ex) {
            problems.add(e.location("driverJar"), "driverJar is not a valid path: " + ex.getMessage());
            return null;
        }
    }

    /**
     * The tables a backend declares, in order, by normalised name.
     *
     * @param partitioned under RAIDb-0, the tables already declared on earlier backends (filled in)
     */
    private List<DeclaredTable> tables(XmlElement backend, String backendName, ReplicationLevel replication,
                                       Map<String, Map.Entry<String, ConfigLocation>> partitioned) {
        Map<String, ConfigLocation> seen = new HashMap<>();
        List<DeclaredTable> tables = new ArrayList<>();
        for (XmlElement e : backend.children("table")) {
            String written = e.required("name").trim();
            String name = tableName(written);
            if (name.isEmpty()) {
                problems.add(e.location("name"), "table name '" + written + "' is empty once unquoted");
                continue;
            }
            ConfigLocation first = seen.putIfAbsent(name, e.location());
            if (first != null) {
                problems.add(e.location(), "table '" + name + "' is declared twice on backend '" + backendName
                        + "' (first at line " + first.line() + ")");
                continue;
            }
            if (replication == ReplicationLevel.RAIDB_0) {
                Map.Entry<String, ConfigLocation> holder =
                        partitioned.putIfAbsent(name, Map.entry(backendName, e.location()));
                if (holder != null) {
                    problems.add(e.location(), "under RAIDb-0 each table lives on one backend, and table '" + name
                            + "' is already declared on backend '" + holder.getKey() + "' (line "
                            + holder.getValue().line() + ")");
                    continue;
                }
            }
            tables.add(new DeclaredTable(name, e.location().toString()));
        }
        return List.copyOf(tables);
    }

    /**
     * A table name as the request manager compares it: without quotes ("", ``, []) and in lower
     * case, schema qualification kept as written.
     */
    static String tableName(String written) {
        return written.replace("\"", "").replace("`", "").replace("[", "").replace("]", "")
                .trim().toLowerCase(Locale.ROOT);
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
                logins.put(virtualUser, new Credentials(e.required("user"), secrets.of(e, "password")));
            }
        }
        return Map.copyOf(logins);
    }

    private RequestManagerConfig requestManager(XmlElement e, ReplicationLevel replication, List<BackendConfig> backends) {
        int backendCount = backends.size();
        if (replication == ReplicationLevel.SINGLE_DB && backendCount != 1) {
            problems.add(e.location(), "replication SingleDB takes exactly one backend, found " + backendCount);
        }
        RequestManagerConfig.Builder config = RequestManagerConfig.builder()
                .replication(replication)
                .lockTimeout(lockTimeout(e))
                .defaultIsolation(defaultIsolation(e))
                .macroTimeZone(macroTimeZone(e))
                .analysisCacheSize(intAttribute(e, "analysisCacheSize", DEFAULTS.analysisCacheSize()))
                .placementRules(placementRules(e, replication, backends));
        if (e.attributes().containsKey("waitPolicy")) {
            config.waitPolicy(WaitPolicy.valueOf(constant(e.required("waitPolicy"))));
        }
        if (e.attributes().containsKey("balancing")) {
            config.balancing(BalancingPolicy.valueOf(constant(e.required("balancing"))));
        }
        if (e.attributes().containsKey("lockGranularity")) {
            config.lockGranularity(LockGranularity.valueOf(constant(e.required("lockGranularity"))));
        }
        if (e.attributes().containsKey("readRouting")) {
            config.readRouting(ReadRouting.valueOf(constant(e.required("readRouting"))));
        }
        return config.build();
    }

    /** The createTable rules in order, each checked against the backends and the replication level. */
    private List<PlacementRule> placementRules(XmlElement requestManager, ReplicationLevel replication,
                                               List<BackendConfig> backends) {
        List<XmlElement> elements = requestManager.children("createTable");
        if (elements.isEmpty()) {
            return List.of();
        }
        if (!replication.isPartial()) {
            problems.add(elements.get(0).location(), "createTable rules apply only under replication RAIDb-0 or"
                    + " RAIDb-2, and replication is " + replicationText(replication)
                    + (requestManager.attributes().containsKey("replication") ? "" : " (the default)")
                    + ": they would be ignored");
        }
        List<String> known = backends.stream().map(BackendConfig::name).toList();
        List<PlacementRule> rules = new ArrayList<>();
        ConfigLocation defaultRule = null;
        for (int i = 0; i < elements.size(); i++) {
            XmlElement e = elements.get(i);
            Pattern pattern = pattern(e);
            if (!e.attributes().containsKey("pattern")) {
                Optional<XmlElement> shadowed = elements.stream().skip(i + 1)
                        .filter(r -> r.attributes().containsKey("pattern")).findFirst();
                if (defaultRule != null) {
                    problems.add(e.location(), "a second default createTable rule (no pattern); the first is at line "
                            + defaultRule.line());
                } else if (shadowed.isPresent()) {
                    problems.add(e.location(), "the default createTable rule (no pattern) matches every table, so it"
                            + " must be the last rule (the rule at line " + shadowed.get().location().line()
                            + " would never be used)");
                }
                if (defaultRule == null) {
                    defaultRule = e.location();
                }
            }
            rules.add(placementRule(e, pattern, replication, known));
        }
        return List.copyOf(rules);
    }

    private Pattern pattern(XmlElement e) {
        String text = e.attribute("pattern", null);
        if (text == null) {
            return null;
        }
        try {
            return Pattern.compile(text.trim());
        } catch (PatternSyntaxException ex) {
            problems.add(e.location("pattern"), "pattern '" + text.trim() + "' is not a regular expression: "
                    + ex.getDescription() + (ex.getIndex() >= 0 ? " at index " + ex.getIndex() : ""));
            return null;
        }
    }

    private PlacementRule placementRule(XmlElement e, Pattern pattern, ReplicationLevel replication, List<String> known) {
        String policyText = e.required("policy").trim();
        PlacementRule.Policy policy = PlacementRule.Policy.valueOf(constant(policyText));
        List<String> listed = backendList(e, known);
        boolean hasBackends = e.attributes().containsKey("backends");
        boolean hasCount = e.attributes().containsKey("count");
        int count = intAttribute(e, "count", 0);
        boolean partitioning = replication == ReplicationLevel.RAIDB_0;
        switch (policy) {
            case BACKENDS -> {
                if (!hasBackends) {
                    problems.add(e.location(), "policy backends needs a backends attribute listing where new tables go");
                } else if (partitioning && listed.size() > 1) {
                    problems.add(e.location("backends"), "under RAIDb-0 each table lives on one backend, but this"
                            + " rule places it on " + listed.size() + " (" + String.join(", ", listed) + ")");
                }
                if (hasCount) {
                    problems.add(e.location("count"), "count applies to policies round-robin and random only;"
                            + " policy backends places a table on every backend listed");
                }
            }
            case ROUND_ROBIN, RANDOM -> {
                // as written, so a misspelt name is reported once (as unknown), not again as too small a pool
                int pool = hasBackends ? writtenNames(e).size() : known.size();
                if (!hasCount) {
                    problems.add(e.location(), "policy " + policyText + " needs count: how many backends get each new table");
                } else if (count > pool) {
                    problems.add(e.location("count"), "count " + count + " is more than the " + pool + " backend"
                            + (pool == 1 ? "" : "s") + " policy " + policyText + " chooses from");
                } else if (partitioning && count > 1) {
                    problems.add(e.location("count"), "under RAIDb-0 each table lives on one backend, but count "
                            + count + " places each new table on " + count + " backends");
                }
            }
            case ALL -> {
                if (hasBackends) {
                    problems.add(e.location("backends"), "policy all places a table on every backend; to list"
                            + " backends, use policy backends");
                }
                if (hasCount) {
                    problems.add(e.location("count"), "count applies to policies round-robin and random only;"
                            + " policy all places a table on every backend");
                }
                if (partitioning && known.size() > 1) {
                    problems.add(e.location("policy"), "under RAIDb-0 each table lives on one backend, but policy all"
                            + " places it on all " + known.size() + " backends");
                }
            }
        }
        return new PlacementRule(pattern, policy, listed,
                policy == PlacementRule.Policy.ROUND_ROBIN || policy == PlacementRule.Policy.RANDOM ? count : 0,
                e.location().toString());
    }

    /** The backends attribute as names, each checked to be a declared backend named once. */
    private List<String> backendList(XmlElement e, List<String> known) {
        String text = e.attribute("backends", null);
        if (text == null) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        for (String name : writtenNames(e)) {
            if (!known.contains(name)) {
                problems.add(e.location("backends"), "createTable names unknown backend '" + name + "' (declared: "
                        + String.join(", ", known) + ")");
            } else {
                names.add(name);
            }
        }
        if (writtenNames(e).size() < text.trim().split("\\s+").length) {
            problems.add(e.location("backends"), "backends names the same backend twice: " + text.trim());
        }
        return List.copyOf(names);
    }

    /** The distinct names in the backends attribute, in order. */
    private static List<String> writtenNames(XmlElement e) {
        String text = e.attribute("backends", "").trim();
        return text.isEmpty() ? List.of() : Arrays.stream(text.split("\\s+")).distinct().toList();
    }

    /** The result cache: sizes, granularity, rules in order, and the load trigger of relaxed rules. */
    private CacheConfig cache(XmlElement e) {
        boolean hasHigh = e.attributes().containsKey("relaxedHighWater");
        boolean hasLow = e.attributes().containsKey("relaxedLowWater");
        int high = intAttribute(e, "relaxedHighWater", CACHE_DEFAULTS.relaxedHighWater());
        int low = intAttribute(e, "relaxedLowWater", CACHE_DEFAULTS.relaxedLowWater());
        if (hasHigh != hasLow) {
            String given = hasHigh ? "relaxedHighWater" : "relaxedLowWater";
            String missing = hasHigh ? "relaxedLowWater" : "relaxedHighWater";
            problems.add(e.location(given), given + " needs " + missing + " too: relaxed rules start applying when"
                    + " the backends' pending requests reach relaxedHighWater and stop below relaxedLowWater");
        } else if (hasHigh && low >= high) {
            problems.add(e.location("relaxedLowWater"), "relaxedLowWater (" + low + ") must be lower than"
                    + " relaxedHighWater (" + high + ")");
        }
        return new CacheConfig(
                intAttribute(e, "maxEntries", CACHE_DEFAULTS.maxEntries()),
                maxMemory(e),
                intAttribute(e, "maxEntryRows", CACHE_DEFAULTS.maxEntryRows()),
                e.attributes().containsKey("granularity")
                        ? CacheConfig.Granularity.valueOf(constant(e.required("granularity")))
                        : CACHE_DEFAULTS.granularity(),
                cacheRules(e),
                hasHigh && hasLow ? high : 0,
                hasHigh && hasLow ? low : 0);
    }

    private long maxMemory(XmlElement e) {
        String text = e.attribute("maxMemory", null);
        if (text == null) {
            return CACHE_DEFAULTS.maxMemoryBytes();
        }
        try {
            long bytes = Sizes.parse(text);
            if (bytes == 0) {
                problems.add(e.location("maxMemory"), "maxMemory must be larger than 0");
                return CACHE_DEFAULTS.maxMemoryBytes();
            }
            return bytes;
        } catch (IllegalArgumentException ex) {
            problems.add(e.location("maxMemory"), "maxMemory: " + ex.getMessage());
            return CACHE_DEFAULTS.maxMemoryBytes();
        }
    }

    /** The cache rules in order; staleness is required by relaxed rules and refused on the others. */
    private List<CacheConfig.Rule> cacheRules(XmlElement cache) {
        List<CacheConfig.Rule> rules = new ArrayList<>();
        for (XmlElement e : cache.children("rule")) {
            Pattern pattern = pattern(e);
            String actionText = e.required("action").trim();
            CacheConfig.Action action = CacheConfig.Action.valueOf(constant(actionText));
            boolean hasStaleness = e.attributes().containsKey("staleness");
            Duration staleness = null;
            if (action == CacheConfig.Action.RELAXED) {
                if (hasStaleness) {
                    staleness = staleness(e);
                } else {
                    problems.add(e.location(), "a relaxed rule needs staleness: how old an entry it may serve"
                            + " (e.g. staleness=\"60s\")");
                }
            } else if (hasStaleness) {
                problems.add(e.location("staleness"), "staleness applies to relaxed rules only; " + actionText
                        + (action == CacheConfig.Action.EAGER
                                ? " entries are invalidated by writes, never served stale"
                                : " reads are never cached"));
            }
            rules.add(new CacheConfig.Rule(pattern, action, staleness, e.location().toString()));
        }
        return List.copyOf(rules);
    }

    private HangLimits hangLimits(XmlElement e) {
        HangLimits d = HangLimits.DEFAULTS;
        Duration limit = d.statementTimeLimit();
        long bytes = d.maxQueuedBytes();
        try {
            String text = e.attribute("statementTimeLimit", null);
            limit = text == null ? limit : Durations.parse(text);
        } catch (IllegalArgumentException ex) {
            problems.add(e.location("statementTimeLimit"), "statementTimeLimit: " + ex.getMessage());
        }
        try {
            String text = e.attribute("maxQueuedBytes", null);
            bytes = text == null ? bytes : Sizes.parse(text);
        } catch (IllegalArgumentException ex) {
            problems.add(e.location("maxQueuedBytes"), "maxQueuedBytes: " + ex.getMessage());
        }
        return new HangLimits(limit, intAttribute(e, "maxQueuedWrites", d.maxQueuedWrites()), bytes);
    }

    private Duration staleness(XmlElement e) {
        String text = e.required("staleness");
        try {
            Duration d = Durations.parse(text);
            if (d.isZero()) {
                problems.add(e.location("staleness"), "staleness must be longer than 0");
            }
            return d;
        } catch (IllegalArgumentException ex) {
            problems.add(e.location("staleness"), "staleness: " + ex.getMessage());
            return null;
        }
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
                return DEFAULTS.lockTimeout();
            }
            return d;
        } catch (IllegalArgumentException ex) {
            problems.add(e.location(), "lockTimeout: " + ex.getMessage());
            return DEFAULTS.lockTimeout();
        }
    }

    /** The schema allows only the four level names; 0 (absent) leaves the engines' default. */
    private static int defaultIsolation(XmlElement e) {
        String text = e.attribute("defaultIsolation", null);
        if (text == null) {
            return 0;
        }
        return switch (text.trim()) {
            case "READ_UNCOMMITTED" -> java.sql.Connection.TRANSACTION_READ_UNCOMMITTED;
            case "READ_COMMITTED" -> java.sql.Connection.TRANSACTION_READ_COMMITTED;
            case "REPEATABLE_READ" -> java.sql.Connection.TRANSACTION_REPEATABLE_READ;
            default -> java.sql.Connection.TRANSACTION_SERIALIZABLE;
        };
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

    private static ReplicationLevel replication(XmlElement requestManager) {
        String text = requestManager.attribute("replication", null);
        if (text == null) {
            return DEFAULTS.replication();
        }
        return switch (text.trim()) {
            case "SingleDB" -> ReplicationLevel.SINGLE_DB;
            case "RAIDb-0" -> ReplicationLevel.RAIDB_0;
            case "RAIDb-1" -> ReplicationLevel.RAIDB_1;
            case "RAIDb-2" -> ReplicationLevel.RAIDB_2;
            default -> throw new IllegalStateException("schema let replication '" + text + "' through");
        };
    }

    /** How the configuration writes a level. */
    private static String replicationText(ReplicationLevel level) {
        return switch (level) {
            case SINGLE_DB -> "SingleDB";
            case RAIDB_0 -> "RAIDb-0";
            case RAIDB_1 -> "RAIDb-1";
            case RAIDB_2 -> "RAIDb-2";
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
