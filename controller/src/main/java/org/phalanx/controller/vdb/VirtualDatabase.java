package org.phalanx.controller.vdb;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.controller.config.DistributionConfig;
import org.phalanx.controller.config.RecoveryLogConfig;
import org.phalanx.controller.config.VirtualDatabaseConfig;
import org.phalanx.engine.SqlState;
import org.phalanx.recoverylog.FileRecoveryLog;
import org.phalanx.recoverylog.JdbcRecoveryLog;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.recoverylog.RecoveryLogException;
import org.phalanx.recoverylog.dump.Backupers;
import org.phalanx.recoverylog.dump.DumpException;
import org.phalanx.recoverylog.dump.DumpInfo;
import org.phalanx.recoverylog.dump.MysqlDumpBackuper;
import org.phalanx.recoverylog.dump.Progress;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.config.RecoveryConfig;
import org.phalanx.requestmanager.RequestManager;
import org.phalanx.requestmanager.api.DatabaseProduct;
import org.phalanx.requestmanager.config.RequestManagerConfig;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.api.RequestOutcome;
import org.phalanx.requestmanager.distribution.GroupMember;
import org.phalanx.requestmanager.stats.Statistics;
import org.phalanx.requestmanager.stats.CacheStatistics;
import org.phalanx.requestmanager.verify.VerificationProgress;
import org.phalanx.requestmanager.verify.VerificationReport;
import org.phalanx.requestmanager.verify.VerificationRequest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A virtual database hosted by this controller: who may log in, where their sessions come from,
 * and the operator actions on its backends (disable, enable by replay, checkpoints, purge, dumps).
 *
 * <p>Operator actions run one at a time per virtual database: one asked for while another runs
 * is refused at once (SQLState 55006) rather than queued behind, say, an hour-long dump.
 * Reading states and listing dumps is always possible.
 */
public final class VirtualDatabase {
    private static final Logger LOG = LogManager.getLogger(VirtualDatabase.class);

    /** The only thing a client learns from a failed login: not which part was wrong. */
    public static final String INVALID_CREDENTIALS = "invalid credentials";

    /** A file in the dump folder: its name and what it says it holds, or why that cannot be read. */
    public record Dump(String name, DumpInfo info, String problem) {
        /** Whether the dump's description could be read (a truncated or foreign file cannot). */
        public boolean readable() {
            return info != null;
        }
    }

    private final String name;
    private final VirtualUsers users;
    private final SessionSource sessions;
    /** Where dumps go; null without a recovery log. */
    private final Path dumpDir;
    /** The log the request manager writes (it closes it); read here, never written. Null without one. */
    private final RecoveryLog log;
    private final ReentrantLock operations = new ReentrantLock();
    private ServingChanges servingChanges = new ServingChanges();
    private final AnswerTimes answerTimes = new AnswerTimes();
    private volatile String runningOperation;
    /** What it was started from; null for one built in a test. */
    private VirtualDatabaseConfig config;
    /** Told every finished verification's report, on demand or scheduled (management notifications). */
    private final Set<Consumer<VerificationReport>> verificationListeners = ConcurrentHashMap.newKeySet();
    /** Runs the configured verification schedule; null without one. */
    private volatile ScheduledVerification scheduledVerification;
    /** Enables backends again on the recovery log's {@code autoEnable} period; null without one. */
    private volatile AutoEnable autoEnable;

    /** A recovery log's description and counters, for management. */
    public record LogStatus(String description, long lastPosition, long purgedThrough, long appended,
                            long groupCommits) {
        /** Entries held (not yet purged). */
        public long entries() {
            return Math.max(0, lastPosition - purgedThrough);
        }
    }

    public VirtualDatabase(String name, VirtualUsers users, SessionSource sessions) {
        this(name, users, sessions, null);
    }

    /** @param dumpDir the folder dumps are written to and restored from; null without a recovery log */
    public VirtualDatabase(String name, VirtualUsers users, SessionSource sessions, Path dumpDir) {
        this(name, users, sessions, dumpDir, null);
    }

    private VirtualDatabase(String name, VirtualUsers users, SessionSource sessions, Path dumpDir, RecoveryLog log) {
        this.name = name;
        this.users = users;
        this.sessions = sessions;
        this.dumpDir = dumpDir;
        this.log = log;
    }

    /**
     * Opens the recovery log (if configured), then creates and starts the request manager of a
     * configured virtual database. Backend states saved in the log decide which backends start
     * enabled.
     *
     * @throws SQLException when the log cannot be opened (corrupt, locked by another controller,
     *                      database unreachable) or the request manager cannot start
     */
    public static VirtualDatabase start(VirtualDatabaseConfig config) throws SQLException {
        if (config.distribution() != null) {
            return startDistributed(config);
        }
        RequestManagerConfig requestManagerConfig = config.requestManager();
        RecoveryLogConfig logConfig = config.recoveryLog();
        RecoveryLog log = null;
        if (logConfig != null) {
            log = openLog(config.name(), logConfig);
            InterruptedDumps.clear(config.name(), log, logConfig.dumpDir());
            requestManagerConfig = requestManagerConfig.toBuilder().recovery(new RecoveryConfig(log,
                    logConfig.enableSyncedOnStart(), logConfig.checkpointEvery(), logConfig.checkpointEveryWrites()))
                    .build();
        }
        RequestManager requestManager;
        try {
            requestManager = new RequestManager(config.name(), requestManagerConfig, config.backends());
        } catch (RuntimeException e) {
            if (log != null) {
                log.close();
            }
            throw e;
        }
        try {
            requestManager.start(); // from here on the request manager owns the log and closes it
        } catch (SQLException | RuntimeException e) {
            requestManager.shutdown(Duration.ZERO);
            throw e;
        }
        LOG.info("Virtual database {} started ({} backends, {}{}): {}", config.name(), config.backends().size(),
                config.requestManager().replication(),
                logConfig == null ? ", no recovery log" : ", " + logConfig.describe() + " at position "
                        + requestManager.lastPosition(),
                requestManager.backendStates());
        VirtualDatabase vdb = new VirtualDatabase(config.name(), new VirtualUsers(config.users()),
                SessionSource.of(requestManager), logConfig == null ? null : logConfig.dumpDir(), log);
        vdb.config = config;
        vdb.startVerificationSchedule();
        return vdb;
    }

    /**
     * Joins the virtual database's group (docs/distribution.md): this controller serves sessions
     * while it is the group's primary, and keeps its backends current from the group's log otherwise.
     */
    private static VirtualDatabase startDistributed(VirtualDatabaseConfig config) throws SQLException {
        DistributionConfig distribution = config.distribution();
        RecoveryLogConfig logConfig = config.recoveryLog();
        RecoveryLog local = logConfig == null ? null : openLog(config.name(), logConfig);
        if (local != null) {
            InterruptedDumps.clear(config.name(), local, logConfig.dumpDir());
        }
        ServingChanges servingChanges = new ServingChanges();
        GroupMember<RequestManager> member;
        try {
            member = GroupMember.start(config.name(), distribution.group(), config.backends(), distribution.standby(),
                    local, distribution.memberSettings(config.requestManager()), (groupLog, backends) -> {
                        // a follower's readers keep no log, no cache and nothing of what results look like:
                        // the log's replay changes their backends
                        RequestManagerConfig rmConfig = groupLog == null
                                ? config.requestManager().toBuilder().cache(null).keepsResultDescriptions(false).build()
                                : config.requestManager().toBuilder().recovery(new RecoveryConfig(groupLog, true,
                                        logConfig.checkpointEvery(), logConfig.checkpointEveryWrites())).build();
                        RequestManager rm = new RequestManager(config.name(), rmConfig, backends);
                        try {
                            rm.start();
                        } catch (SQLException | RuntimeException e) {
                            rm.shutdown(Duration.ZERO);
                            throw e;
                        }
                        return rm;
                    }, servingChanges::changed);
        } catch (Exception e) {
            if (local != null) {
                local.close();
            }
            throw new SQLException((config.file() == null ? "" : config.file() + ": ") + "virtual database "
                    + config.name() + " could not join group " + distribution.group().groupName() + ": "
                    + e.getMessage(), SqlState.IO_ERROR.code(), e);
        }
        VirtualDatabase vdb = new VirtualDatabase(config.name(), new VirtualUsers(config.users()),
                SessionSource.of(member), logConfig == null ? null : logConfig.dumpDir(), local);
        vdb.config = config;
        vdb.servingChanges = servingChanges;
        vdb.startVerificationSchedule();
        return vdb;
    }

    /** Who is told when this controller starts or stops serving a distributed virtual database. */
    private static final class ServingChanges {
        private final Set<Consumer<RequestManager>> listeners = ConcurrentHashMap.newKeySet();

        void changed(RequestManager servingWith) {
            listeners.forEach(l -> l.accept(servingWith));
        }

        AutoCloseable add(Consumer<RequestManager> listener) {
            listeners.add(listener);
            return () -> listeners.remove(listener);
        }
    }

    /**
     * Calls {@code listener} with the request manager when this controller starts serving the
     * virtual database, and with null when it stops (a distributed one's primary changing); closing
     * the returned handle stops that. A virtual database that is not distributed never changes.
     */
    public AutoCloseable onServingChanged(Consumer<RequestManager> listener) {
        return servingChanges.add(listener);
    }

    /** Calls {@code closeConnection} if this controller stops serving the session's virtual database. */
    public AutoCloseable onSessionsLost(Runnable closeConnection) {
        return servingChanges.add(rm -> {
            if (rm == null) {
                closeConnection.run();
            }
        });
    }

    /** Whether this controller serves sessions of this virtual database now. */
    public boolean serves() {
        return sessions.serves();
    }

    /**
     * Whether request {@code number} of an earlier client connection was applied: asked by a driver
     * that lost its controller (docs/distribution.md, exactly-once retries). Only a distributed
     * virtual database's primary knows; elsewhere the answer is unknown.
     */
    public RequestOutcome requestOutcome(String clientSession, long number, long ageMillis) {
        GroupMember<RequestManager> member = sessions.group();
        return member == null
                ? new RequestOutcome.Unknown("virtual database " + name + " is not distributed: its controller does not"
                        + " remember requests")
                : member.requestOutcome(clientSession, number, ageMillis);
    }

    /** The group this virtual database is hosted with, if it is distributed. */
    public Optional<GroupMember<RequestManager>> group() {
        return Optional.ofNullable(sessions.group());
    }

    /** Opens the configured log, or refuses the virtual database saying which log and why. */
    static RecoveryLog openLog(String virtualDatabase, RecoveryLogConfig config) throws SQLException {
        try {
            return config.isFileLog()
                    ? new FileRecoveryLog(config.directory())
                    : new JdbcRecoveryLog(config.url(), config.user(), config.password(), config.tablePrefix());
        } catch (RuntimeException e) {
            throw new SQLException((config.location() == null ? "" : config.location() + ": ") + "virtual database "
                    + virtualDatabase + " refused: its recovery log (" + config.describe() + ") cannot be opened: "
                    + e.getMessage(), SqlState.IO_ERROR.code(), e);
        }
    }

    public String name() {
        return name;
    }

    /**
     * Checks the credentials and opens a session for the user.
     *
     * @throws SQLInvalidAuthorizationSpecException (28000) when they do not match
     */
    public Session login(String user, String password) throws SQLException {
        return login(user, password, false, false);
    }

    /**
     * The same, for a session that starts read-only (a distributed virtual database's followers serve
     * those too: with {@code currentReads}, each read as current as the group when it starts).
     */
    public Session login(String user, String password, boolean readOnly, boolean currentReads) throws SQLException {
        if (!users.authenticate(user, password)) {
            throw new SQLInvalidAuthorizationSpecException(INVALID_CREDENTIALS,
                    SqlState.INVALID_AUTHORIZATION_SPECIFICATION.code());
        }
        return sessions.openSession(user, readOnly, currentReads);
    }

    /**
     * The database product clients are told they talk to (DatabaseMetaData.getDatabaseProduct*):
     * that of the backends when they all speak one engine's SQL, so an application picks its SQL
     * dialect as it would connected to them directly, and a controller using this virtual
     * database as a backend knows which SQL its dumps must speak. Phalanx itself otherwise.
     */
    public DatabaseProduct product() {
        RequestManager rm = sessions.requestManager();
        DatabaseProduct p = rm == null ? null : rm.product();
        return p != null ? p : new DatabaseProduct(Product.NAME, Product.VERSION);
    }

    /** The isolation level a session starts at. */
    public int defaultIsolation() {
        RequestManager rm = sessions.requestManager();
        return rm == null ? java.sql.Connection.TRANSACTION_READ_COMMITTED : rm.defaultIsolation();
    }

    /** Whether a failed login named an existing user (for the server log only). */
    public boolean hasUser(String user) {
        return users.exists(user);
    }

    /** Backend name to state, in configuration order. */
    public Map<String, BackendState> backendStates() {
        return sessions.backendStates();
    }

    /** Request counters of this virtual database, unparsed statements included. */
    public Statistics.Snapshot statistics() {
        return sessions.statistics();
    }

    /** Result cache counters, or null without a cache. */
    public CacheStatistics cacheStatistics() {
        return sessions.cacheStatistics();
    }

    /** How long the controller takes to answer this virtual database's requests (the front end records them). */
    public AnswerTimes answerTimes() {
        return answerTimes;
    }

    /** The configuration it was started from, if it was started from one. */
    public Optional<VirtualDatabaseConfig> config() {
        return Optional.ofNullable(config);
    }

    /** The request manager, for management counters (backends, pending requests, SQL statistics); empty without one. */
    public Optional<RequestManager> requestManager() {
        return Optional.ofNullable(sessions.requestManager());
    }

    /** The operator action running now (what and since when), if any. */
    public Optional<String> runningOperation() {
        return Optional.ofNullable(runningOperation);
    }

    /** The recovery log's description and counters; empty without one. */
    public Optional<LogStatus> recoveryLogStatus() {
        if (log == null) {
            return Optional.empty();
        }
        org.phalanx.recoverylog.AppendStatistics appends = log.appendStatistics();
        return Optional.of(new LogStatus(config == null || config.recoveryLog() == null ? "recovery log"
                : config.recoveryLog().describe(), log.lastPosition(), log.purgedThrough(), appends.entries(),
                appends.groupCommits()));
    }

    /** Operator action: empties the result cache (nothing to do without one). */
    public void flushCache() {
        RequestManager rm = sessions.requestManager();
        if (rm != null) {
            rm.flushCache();
            LOG.info("Virtual database {}: result cache flushed by an operator", name);
        }
    }

    /** Whether this virtual database has a recovery log (needed to replay, checkpoint, dump and restore). */
    public boolean hasRecoveryLog() {
        RequestManager rm = sessions.requestManager();
        return rm != null && rm.hasRecoveryLog();
    }

    /** The folder dumps are written to and restored from; empty without a recovery log. */
    public Optional<Path> dumpDir() {
        return Optional.ofNullable(dumpDir);
    }

    // ------------------------------------------------------------------ operator actions

    /** The last position in the total order of writes (the recovery log's, once durable). */
    public long lastPosition() throws SQLException {
        return requestManager("read the log position").lastPosition();
    }

    /** The checkpoint a disabled backend will be replayed from, if it has one (a failed backend has none). */
    public Optional<Long> checkpointOf(String backend) throws SQLException {
        return requestManager("read a backend's checkpoint").checkpointOf(backend);
    }

    /**
     * Every checkpoint in the log by name, position order: {@code backend-<name>} (a disabled
     * backend's), {@code dump-<name>} (a dump's), {@code applied-<name>} (an enabled backend's
     * record floor, which crash recovery reads from), {@code auto} (the schedule's) and the operator's.
     * A purge keeps every entry after the oldest one.
     */
    public Map<String, Long> checkpoints() throws SQLException {
        requestManager("list checkpoints");
        if (log == null) {
            throw new SQLException("virtual database " + name + " has no recovery log (add <recoveryLog> to its"
                    + " file): cannot list checkpoints", SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        Map<String, Long> checkpoints;
        try {
            checkpoints = log.checkpoints();
        } catch (RecoveryLogException e) {
            throw new SQLException("cannot read the checkpoints of virtual database " + name + ": " + e.getMessage(),
                    SqlState.IO_ERROR.code(), e);
        }
        Map<String, Long> sorted = new java.util.LinkedHashMap<>();
        checkpoints.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return java.util.Collections.unmodifiableMap(sorted);
    }

    /**
     * Takes a backend out of service at a checkpoint (writes pause until it has applied what was
     * queued): it can later be enabled by replaying the log from there. Does nothing to a backend
     * that is not enabled.
     */
    public void disableBackend(String backend) throws SQLException {
        RequestManager rm = requestManager("disable a backend");
        operation("disabling backend " + backend, () -> {
            rm.disableBackend(backend);
            LOG.info("Virtual database {}: backend {} disabled by an operator (checkpoint {})", name, backend,
                    rm.checkpointOf(backend).map(String::valueOf).orElse("none"));
            return null;
        });
    }

    /**
     * Replays the log onto a disabled backend from its checkpoint while the others keep serving,
     * then enables it (writes pause only for the final catch-up). A backend that failed has no
     * checkpoint: restore a dump onto it first.
     */
    public void enableBackend(String backend) throws SQLException {
        RequestManager rm = requestManager("enable a backend");
        operation("enabling backend " + backend, () -> {
            long start = System.nanoTime();
            rm.enableBackend(backend);
            LOG.info("Virtual database {}: backend {} enabled by an operator ({} ms)", name, backend,
                    (System.nanoTime() - start) / 1_000_000);
            return null;
        });
    }

    /** The backends that left service to be caught up and connect again (none without a request manager). */
    List<String> backendsToCatchUp() {
        RequestManager rm = sessions.requestManager();
        return rm == null ? List.of() : rm.backendsToCatchUp();
    }

    /**
     * Enables a backend on the {@code autoEnable} schedule ({@link AutoEnable}): as an operator's
     * enable, and like it one operator action at a time (busy: {@code 55006}, tried next period).
     */
    void enableBackendAutomatically(String backend) throws SQLException {
        RequestManager rm = requestManager("enable a backend");
        operation("enabling backend " + backend + " automatically", () -> {
            long start = System.nanoTime();
            rm.enableBackend(backend);
            LOG.info("Virtual database {}: backend {} connects again and was enabled automatically ({} ms)", name,
                    backend, (System.nanoTime() - start) / 1_000_000);
            return null;
        });
    }

    /**
     * Records a named checkpoint at the current position (writes pause while it is taken);
     * taking it again under the same name moves it. Names starting with {@code backend-} or
     * {@code dump-}, and {@code auto}, belong to the controller and are refused.
     *
     * @return its position
     */
    public long checkpoint(String checkpointName) throws SQLException {
        RequestManager rm = requestManager("take a checkpoint");
        if (checkpointName == null || checkpointName.isBlank()) {
            throw new SQLException("a checkpoint needs a name", SqlState.INVALID_PARAMETER_VALUE.code());
        }
        if (checkpointName.startsWith("backend-") || checkpointName.startsWith("dump-")
                || checkpointName.startsWith("applied-") || checkpointName.equals("auto")) {
            throw new SQLException("checkpoint name '" + checkpointName + "' is reserved (backend-*, dump-*, applied-* and auto"
                    + " are the controller's own checkpoints)", SqlState.INVALID_PARAMETER_VALUE.code());
        }
        return operation("taking checkpoint " + checkpointName, () -> rm.checkpoint(checkpointName));
    }

    /**
     * Deletes log entries older than the oldest checkpoint (those of disabled backends, of dumps,
     * the operator's and the scheduled one all count).
     *
     * @return how many entries were deleted
     */
    public long purgeLog() throws SQLException {
        RequestManager rm = requestManager("purge the log");
        return operation("purging the log", () -> {
            long removed = rm.purgeLog();
            LOG.info("Virtual database {}: log purged, {} entries deleted", name, removed);
            return removed;
        });
    }

    /**
     * Dumps a backend to {@code <dumpDir>/<dumpName>}. An enabled backend is dumped from a
     * snapshot and keeps serving; a disabled one must have a checkpoint. The dump records its
     * checkpoint ({@code dump-<dumpName>} in the log), from which a restore is replayed.
     *
     * @param format   null for the portable format (restorable on another engine), or
     *                 {@code sqlite-native}, {@code pg_dump}, {@code mysqldump} (from a disabled
     *                 backend only: it cannot share the controller's snapshot)
     * @param progress rows (or bytes) done of total; may be null
     * @throws SQLException for a name that is not a plain file name, an existing dump of that
     *                      name, or a failed dump (nothing is left behind then)
     */
    public DumpInfo backup(String backend, String dumpName, String format, Progress progress) throws SQLException {
        RequestManager rm = requestManager("take a dump");
        Path file = dumpFile(dumpName, "take a dump");
        return operation("dumping backend " + backend + " to " + dumpName, () -> {
            if (Files.exists(file)) {
                throw new SQLException("dump " + dumpName + " already exists in " + dumpDir
                        + ": choose another name or delete it first", SqlState.DUPLICATE_OBJECT.code());
            }
            if (MysqlDumpBackuper.FORMAT.equals(format) && rm.backendStates().get(backend) == BackendState.ENABLED) {
                // mysqldump takes its own snapshot, not the one taken at the checkpoint: writes in between
                // would be in the dump and replayed again
                throw new SQLException("a mysqldump dump cannot share the controller's snapshot, so it is taken from a"
                        + " disabled backend only: disable " + backend + " first, or use the portable format",
                        SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
            }
            try {
                Files.createDirectories(dumpDir);
            } catch (IOException e) {
                throw new SQLException("cannot create the dump folder " + dumpDir + ": " + e,
                        SqlState.IO_ERROR.code(), e);
            }
            long start = System.nanoTime();
            DumpInfo info = rm.backup(backend, file, format, progress);
            LOG.info("Virtual database {}: backend {} dumped to {} ({} format, {} rows, {} bytes, checkpoint {} at {},"
                            + " {} ms)", name, backend, file, info.format(), info.totalRows(), info.size(),
                    info.checkpointName(), info.checkpointPosition(), (System.nanoTime() - start) / 1_000_000);
            return info;
        });
    }

    /**
     * Restores {@code <dumpDir>/<dumpName>} onto a disabled backend (the whole dump is verified
     * first, so a damaged one changes nothing); {@link #enableBackend} then replays the log from
     * the dump's checkpoint. A backend whose tables hold rows is refused unless {@code force}.
     *
     * @param progress rows (or bytes) done of total; may be null
     */
    public DumpInfo restore(String backend, String dumpName, boolean force, Progress progress) throws SQLException {
        RequestManager rm = requestManager("restore a dump");
        Path file = dumpFile(dumpName, "restore a dump");
        return operation("restoring " + dumpName + " onto backend " + backend, () -> {
            if (!Files.isRegularFile(file)) {
                throw noSuchDump(dumpName);
            }
            long start = System.nanoTime();
            DumpInfo info = rm.restore(backend, file, force, progress);
            LOG.info("Virtual database {}: {} restored onto backend {}{} ({} rows, {} ms); it can be enabled by replay"
                            + " from position {}", name, dumpName, backend, force ? " (forced)" : "", info.totalRows(),
                    (System.nanoTime() - start) / 1_000_000, info.checkpointPosition());
            return info;
        });
    }

    /**
     * The dumps in the dump folder, by name, each with what it holds ({@link Backupers#readInfo}:
     * cheap, reads the description only) or why that cannot be read. Files of dumps being written
     * (hidden names) are not listed.
     */
    public List<Dump> listDumps() throws SQLException {
        requestManager("list dumps");
        requireDumpDir("list dumps");
        if (!Files.isDirectory(dumpDir)) {
            return List.of();
        }
        List<Path> files;
        try (Stream<Path> listing = Files.list(dumpDir)) {
            files = listing.filter(Files::isRegularFile)
                    .filter(f -> !f.getFileName().toString().startsWith("."))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new SQLException("cannot list the dump folder " + dumpDir + ": " + e, SqlState.IO_ERROR.code(), e);
        }
        List<Dump> dumps = new ArrayList<>(files.size());
        for (Path f : files) {
            String dumpName = f.getFileName().toString();
            try {
                dumps.add(new Dump(dumpName, Backupers.readInfo(f), null));
            } catch (DumpException e) {
                dumps.add(new Dump(dumpName, null, e.getMessage()));
            }
        }
        return List.copyOf(dumps);
    }

    /**
     * Deletes a dump file and releases its checkpoint ({@code dump-<name>}): a purge may pass it.
     */
    public void deleteDump(String dumpName) throws SQLException {
        RequestManager rm = requestManager("delete a dump");
        Path file = dumpFile(dumpName, "delete a dump");
        operation("deleting dump " + dumpName, () -> {
            try {
                Files.delete(file);
            } catch (NoSuchFileException e) {
                throw noSuchDump(dumpName);
            } catch (IOException e) {
                throw new SQLException("cannot delete dump " + file + ": " + e, SqlState.IO_ERROR.code(), e);
            }
            rm.removeCheckpoint("dump-" + file.getFileName()); // the log no longer needs to keep its entries
            LOG.info("Virtual database {}: dump {} deleted", name, dumpName);
            return null;
        });
    }

    private SQLException noSuchDump(String dumpName) {
        return new SQLException("no dump named " + dumpName + " in " + dumpDir, SqlState.UNDEFINED_OBJECT.code());
    }

    /** The dump's path in the dump folder; refuses anything but a plain file name. */
    private Path dumpFile(String dumpName, String action) throws SQLException {
        requireDumpDir(action);
        if (dumpName == null || dumpName.isBlank()) {
            throw new SQLException("a dump needs a name", SqlState.INVALID_PARAMETER_VALUE.code());
        }
        if (dumpName.contains("/") || dumpName.contains("\\") || dumpName.contains(java.io.File.separator)
                || dumpName.indexOf('\0') >= 0 || dumpName.startsWith(".")) {
            throw new SQLException("dump name '" + dumpName + "' must be a plain file name (no path separators, not"
                    + " starting with '.'): dumps live in " + dumpDir, SqlState.INVALID_PARAMETER_VALUE.code());
        }
        Path file;
        try {
            file = dumpDir.resolve(dumpName);
        } catch (java.nio.file.InvalidPathException e) {
            throw new SQLException("dump name '" + dumpName + "' is not a file name: " + e.getReason(),
                    SqlState.INVALID_PARAMETER_VALUE.code(), e);
        }
        if (!dumpDir.equals(file.getParent())) {
            throw new SQLException("dump name '" + dumpName + "' must be a plain file name",
                    SqlState.INVALID_PARAMETER_VALUE.code());
        }
        return file;
    }

    private void requireDumpDir(String action) throws SQLException {
        if (dumpDir == null) {
            throw new SQLException("virtual database " + name + " has no recovery log (add <recoveryLog> to its"
                    + " file): cannot " + action, SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
    }

    private RequestManager requestManager(String action) throws SQLException {
        RequestManager rm = sessions.requestManager();
        if (rm == null) {
            throw new SQLException("virtual database " + name + " has no request manager: cannot " + action,
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.code());
        }
        return rm;
    }

    @FunctionalInterface
    private interface Operation<T> {
        T run() throws SQLException;
    }

    /** Runs an operator action unless another one is running. */
    private <T> T operation(String what, Operation<T> action) throws SQLException {
        if (!operations.tryLock()) {
            String running = runningOperation;
            throw new SQLException("virtual database " + name + " is busy"
                    + (running == null ? " with another operation" : " " + running)
                    + ": operator actions run one at a time", SqlState.OBJECT_IN_USE.code());
        }
        try {
            runningOperation = what + " (since " + Instant.now() + ")";
            return action.run();
        } finally {
            runningOperation = null;
            operations.unlock();
        }
    }

    // ------------------------------------------------------------------ replica verification

    /**
     * Verifies that the replicas hold identical data (docs/verification.md): the tables named (all
     * when none), compared across the enabled backends holding each while writes go on. Not an
     * operator action itself (other actions may run meanwhile); disabling or rebuilding an outvoted
     * replica is, and is not done if another action runs then (the report says so). One
     * verification at a time (55006).
     *
     * @param progress rows compared of the estimated total; may be null
     */
    public VerificationReport verify(VerificationRequest request, Progress progress) throws SQLException {
        RequestManager rm = requestManager("verify the replicas");
        VerificationRequest withDumps = request.dumpDir() != null || dumpDir == null ? request
                : new VerificationRequest(request.tables(), request.rowsPerSecond(), request.chunkRows(),
                        request.onDifference(), dumpDir);
        VerificationReport report = rm.verify(withDumps, progress, actions -> operation(
                "acting on the differences verification found", actions::run));
        LOG.info("Virtual database {}: verified {} tables, {} rows in {} ms ({} rows/s): {}", name,
                report.tables().size(), report.rowsCompared(), report.millis(), report.rowsPerSecond(),
                report.identical() ? "identical" : report.differences() + " differences, "
                        + report.problems() + " tables not compared" + (report.minority().isEmpty() ? ""
                        : ", outvoted: " + report.minority()));
        verificationListeners.forEach(l -> l.accept(report));
        return report;
    }

    /** The last finished verification's report, if any. */
    public Optional<VerificationReport> lastVerification() {
        RequestManager rm = sessions.requestManager();
        return rm == null ? Optional.empty() : rm.lastVerification();
    }

    /** The running verification's progress; empty when none runs. */
    public Optional<VerificationProgress> verificationProgress() {
        RequestManager rm = sessions.requestManager();
        return rm == null ? Optional.empty() : rm.verificationProgress();
    }

    /** Tells {@code listener} every finished verification's report from now on; closing the handle stops that. */
    public AutoCloseable onVerification(Consumer<VerificationReport> listener) {
        verificationListeners.add(listener);
        return () -> verificationListeners.remove(listener);
    }

    private void startVerificationSchedule() {
        if (config != null && config.verification() != null) {
            scheduledVerification = ScheduledVerification.start(this, config.verification());
        }
        if (config != null && config.recoveryLog() != null && config.recoveryLog().autoEnable() != null) {
            autoEnable = AutoEnable.start(this, config.recoveryLog().autoEnable());
        }
    }

    public void shutdown(Duration wait) {
        ScheduledVerification schedule = scheduledVerification;
        if (schedule != null) {
            schedule.stop();
        }
        AutoEnable auto = autoEnable;
        if (auto != null) {
            auto.stop();
        }
        sessions.shutdown(wait);
        LOG.info("Virtual database {} shut down", name);
    }
}
