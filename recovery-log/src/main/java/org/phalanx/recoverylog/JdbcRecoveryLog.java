package org.phalanx.recoverylog;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.phalanx.engine.Engine;

/**
 * A recovery log in tables of any JDBC database (a SQLite file, PostgreSQL, MariaDB, or a
 * Phalanx virtual database for a fault-tolerant log). Tables are created if absent:
 *
 * <pre>
 * &lt;prefix&gt;entries     (log_position BIGINT PRIMARY KEY, transaction_id BIGINT, kind CHAR(1),
 *                      login TEXT, sql_text TEXT, params BINARY, backends TEXT)
 * &lt;prefix&gt;checkpoints (name VARCHAR(255) PRIMARY KEY, log_position BIGINT)
 * &lt;prefix&gt;states      (state_key VARCHAR(255) PRIMARY KEY, state_value TEXT)
 * &lt;prefix&gt;meta        (meta_key VARCHAR(64) PRIMARY KEY, meta_value BIGINT)   -- purged_through
 * </pre>
 *
 * {@code kind} is S/W/C/R/F as in the file log, {@code params} the parameter list in
 * {@link ValueEncoding}, {@code backends} the URL-encoded names joined by commas ({@link EntryRow}). Group commit
 * is one batch insert and one commit per group, on a connection of its own; reads stream on
 * another connection with a fetch size. A group whose transaction fails is refused; the next one
 * opens a fresh connection and, in its own transaction, first deletes whatever of the refused
 * groups may have been committed after all.
 */
public final class JdbcRecoveryLog implements RecoveryLog {
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,40}|");
    private static final int MAX_GROUP = 1000;
    private static final int FETCH_SIZE = 500;

    /** Opens connections to the log database. */
    @FunctionalInterface
    private interface ConnectionSource {
        Connection open() throws SQLException;
    }

    private final ConnectionSource source;
    private final String description;
    private final String entries;
    private final String checkpointsTable;
    private final String statesTable;
    private final String metaTable;
    private final JdbcLogSchema schema;
    private final boolean sqlite;
    private final GroupCommit groupCommit;
    private final Object metadataLock = new Object();
    private Connection writer; // writer thread only
    /**
     * The positions of refused batches (lowest, highest; 0 when none), writer thread only. A
     * commit reported as failed may still have happened (the connection broke after it), so rows
     * there are deleted in the transaction of the next batch: a refused entry never stays.
     */
    private long refusedFrom;
    private long refusedTo;
    private volatile long purgedThrough;
    private volatile boolean closed;

    /** A log in the database behind {@code dataSource} (connections are borrowed and returned per use). */
    public JdbcRecoveryLog(DataSource dataSource, String tablePrefix) {
        this(dataSource::getConnection, String.valueOf(dataSource), tablePrefix, null);
    }

    public JdbcRecoveryLog(DataSource dataSource, String tablePrefix, JdbcLogSchema schema) {
        this(dataSource::getConnection, String.valueOf(dataSource), tablePrefix, schema);
    }

    /** A log in the database at {@code url} (through {@link DriverManager}). */
    public JdbcRecoveryLog(String url, String user, String password, String tablePrefix) {
        this(() -> DriverManager.getConnection(url, user, password), url, tablePrefix, null);
    }

    public JdbcRecoveryLog(String url, String user, String password, String tablePrefix, JdbcLogSchema schema) {
        this(() -> DriverManager.getConnection(url, user, password), url, tablePrefix, schema);
    }

    private JdbcRecoveryLog(ConnectionSource source, String description, String tablePrefix, JdbcLogSchema schema) {
        Objects.requireNonNull(tablePrefix, "tablePrefix");
        if (!PREFIX.matcher(tablePrefix).matches()) {
            throw new IllegalArgumentException("table prefix '" + tablePrefix + "' must be a plain SQL identifier");
        }
        this.source = source;
        this.description = description;
        this.entries = tablePrefix + "entries";
        this.checkpointsTable = tablePrefix + "checkpoints";
        this.statesTable = tablePrefix + "states";
        this.metaTable = tablePrefix + "meta";
        long last;
        try (Connection c = source.open()) {
            Engine engine = Engine.of(c);
            this.sqlite = engine == Engine.SQLITE;
            this.schema = schema != null ? schema : JdbcLogSchema.of(engine);
            prepare(c);
            last = createTables(c);
        } catch (SQLException e) {
            throw new RecoveryLogException("cannot open JDBC recovery log at " + description + ": " + e.getMessage(), e);
        }
        this.groupCommit = new GroupCommit("recovery-log-writer " + tablePrefix + entries, this::writeDurably, last,
                MAX_GROUP);
    }

    // SQLite: the writer, metadata changes and streaming readers use separate connections to one file.
    // WAL lets readers keep a cursor open while the writer commits; the busy timeout makes the rare
    // writer/metadata collision wait instead of failing.
    private void prepare(Connection c) throws SQLException {
        if (sqlite) {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout = 30000");
                s.execute("PRAGMA journal_mode = WAL");
            }
        }
    }

    private Connection open() throws SQLException {
        Connection c = source.open();
        try {
            prepare(c);
            return c;
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }

    private long createTables(Connection c) throws SQLException {
        String b = schema.bigint();
        String options = schema.tableOptions();
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + entries + " (log_position " + b + " NOT NULL PRIMARY KEY,"
                    + " transaction_id " + b + " NOT NULL, kind CHAR(1) NOT NULL, login " + schema.text() + ","
                    + " sql_text " + schema.text() + ", params " + schema.binary() + ", backends " + schema.text()
                    + ")" + options);
            s.execute("CREATE TABLE IF NOT EXISTS " + checkpointsTable + " (name VARCHAR(255) NOT NULL PRIMARY KEY,"
                    + " log_position " + b + " NOT NULL)" + options);
            s.execute("CREATE TABLE IF NOT EXISTS " + statesTable + " (state_key VARCHAR(255) NOT NULL PRIMARY KEY,"
                    + " state_value " + schema.text() + ")" + options);
            s.execute("CREATE TABLE IF NOT EXISTS " + metaTable + " (meta_key VARCHAR(64) NOT NULL PRIMARY KEY,"
                    + " meta_value " + b + " NOT NULL)" + options);
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
        purgedThrough = readMeta(c, "purged_through");
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT MAX(log_position) FROM " + entries)) {
            rs.next();
            return Math.max(rs.getLong(1), purgedThrough);
        }
    }

    private long readMeta(Connection c, String key) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT meta_value FROM " + metaTable + " WHERE meta_key = ?")) {
            s.setString(1, key);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    // ---- appending (writer thread)

    private void writeDurably(List<LogEntry> batch) throws SQLException {
        try {
            if (writer == null) {
                writer = open();
                writer.setAutoCommit(false);
            }
            if (refusedTo > 0) {
                try (PreparedStatement delete = writer.prepareStatement("DELETE FROM " + entries
                        + " WHERE log_position >= ? AND log_position <= ?")) {
                    delete.setLong(1, refusedFrom);
                    delete.setLong(2, refusedTo);
                    delete.executeUpdate();
                }
            }
            if (!batch.isEmpty()) {
                try (PreparedStatement insert = writer.prepareStatement("INSERT INTO " + entries
                        + " (" + EntryRow.COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                    for (LogEntry e : batch) {
                        EntryRow.bind(insert, e);
                        insert.addBatch();
                    }
                    insert.executeBatch();
                }
            }
            writer.commit(); // the one commit of the group
            refusedFrom = 0;
            refusedTo = 0;
        } catch (SQLException | RuntimeException e) {
            if (!batch.isEmpty()) {
                long first = batch.get(0).position();
                refusedFrom = refusedTo == 0 ? first : Math.min(refusedFrom, first);
                refusedTo = Math.max(refusedTo, batch.get(batch.size() - 1).position());
            }
            // a broken or half-done connection is not reused; the next group opens a fresh one
            Connection broken = writer;
            writer = null;
            if (broken != null) {
                try {
                    broken.rollback();
                } catch (SQLException ignored) {
                    // it is being discarded anyway
                }
                try {
                    broken.close();
                } catch (SQLException ignored) {
                    // idem
                }
            }
            throw e;
        }
    }

    // ---- RecoveryLog

    @Override
    public CompletableFuture<Void> appendAsync(LogEntry entry) {
        return groupCommit.submit(Objects.requireNonNull(entry, "entry"));
    }

    @Override
    public long lastPosition() {
        return Math.max(groupCommit.lastDurable(), purgedThrough);
    }

    @Override
    public long purgedThrough() {
        return purgedThrough;
    }

    @Override
    public CloseableIterator<LogEntry> read(long afterPosition) {
        checkOpen();
        if (afterPosition < purgedThrough) {
            throw new RecoveryLogException("cannot read the recovery log after position " + afterPosition
                    + ": entries up to " + purgedThrough + " were purged");
        }
        long upTo = groupCommit.lastDurable();
        Connection c = null;
        try {
            c = open();
            c.setAutoCommit(false); // PostgreSQL streams with a fetch size only inside a transaction
            PreparedStatement s = c.prepareStatement("SELECT " + EntryRow.COLUMNS + " FROM " + entries
                    + " WHERE log_position > ? AND log_position <= ? ORDER BY log_position");
            s.setFetchSize(FETCH_SIZE);
            s.setLong(1, afterPosition);
            s.setLong(2, upTo);
            return new EntryReader(new Rows(c, s, s.executeQuery()));
        } catch (SQLException e) {
            closeQuietly(c);
            throw new RecoveryLogException("cannot read recovery log " + description + ": " + e.getMessage(), e);
        }
    }

    /** The stored entries of a query's rows; the connection is the read's own. */
    private final class Rows implements EntryReader.Source {
        private final Connection connection;
        private final PreparedStatement statement;
        private final ResultSet rows;
        private boolean closed;

        Rows(Connection connection, PreparedStatement statement, ResultSet rows) {
            this.connection = connection;
            this.statement = statement;
            this.rows = rows;
        }

        @Override
        public StoredEntry next() {
            try {
                return rows.next() ? EntryRow.read(rows) : null;
            } catch (SQLException e) {
                throw new RecoveryLogException("cannot read recovery log " + description + ": " + e.getMessage(), e);
            }
        }

        @Override
        public RecoveryLogException damaged(StoredEntry entry, IOException reason) {
            return new RecoveryLogException("recovery log " + description + ", table " + entries
                    + ": the entry at position " + entry.position() + " is damaged: " + reason.getMessage(), reason);
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                rows.close();
                statement.close();
                connection.rollback();
                connection.setAutoCommit(true);
            } catch (SQLException ignored) {
                // read-only: nothing to lose
            }
            closeQuietly(connection);
        }
    }

    @Override
    public void setCheckpoint(String name, long position) {
        Objects.requireNonNull(name, "checkpoint name");
        if (position < 0) {
            throw new IllegalArgumentException("negative checkpoint position " + position);
        }
        if (position < purgedThrough) {
            throw new RecoveryLogException("checkpoint '" + name + "' at " + position + " would need entries up to "
                    + purgedThrough + ", which were purged");
        }
        upsert(checkpointsTable, "name", "log_position", name, position);
    }

    @Override
    public Optional<Long> checkpoint(String name) {
        return Optional.ofNullable(checkpoints().get(name));
    }

    @Override
    public Map<String, Long> checkpoints() {
        Map<String, Long> result = new LinkedHashMap<>();
        query("SELECT name, log_position FROM " + checkpointsTable + " ORDER BY name",
                rs -> result.put(rs.getString(1), rs.getLong(2)));
        return Collections.unmodifiableMap(result);
    }

    @Override
    public void removeCheckpoint(String name) {
        update(c -> {
            try (PreparedStatement s = c.prepareStatement("DELETE FROM " + checkpointsTable + " WHERE name = ?")) {
                s.setString(1, name);
                s.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public long purge() {
        return update(c -> {
            long oldest;
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT MIN(log_position), COUNT(*) FROM " + checkpointsTable)) {
                rs.next();
                if (rs.getLong(2) == 0) {
                    return 0L;
                }
                oldest = rs.getLong(1);
            }
            long through;
            try (PreparedStatement s = c.prepareStatement("SELECT MAX(log_position) FROM " + entries
                    + " WHERE log_position <= ?")) {
                s.setLong(1, oldest);
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    through = rs.getLong(1);
                }
            }
            if (through == 0) {
                return 0L;
            }
            long removed;
            try (PreparedStatement s = c.prepareStatement("DELETE FROM " + entries + " WHERE log_position <= ?")) {
                s.setLong(1, through);
                removed = s.executeUpdate();
            }
            long newPurged = Math.max(purgedThrough, through);
            writeMeta(c, "purged_through", newPurged);
            return removed;
        }, () -> {
            try (Connection c = open()) {
                purgedThrough = readMeta(c, "purged_through");
            }
        });
    }

    private void writeMeta(Connection c, String key, long value) throws SQLException {
        try (PreparedStatement u = c.prepareStatement("UPDATE " + metaTable + " SET meta_value = ? WHERE meta_key = ?")) {
            u.setLong(1, value);
            u.setString(2, key);
            if (u.executeUpdate() > 0) {
                return;
            }
        }
        try (PreparedStatement i = c.prepareStatement("INSERT INTO " + metaTable + " (meta_key, meta_value) VALUES (?, ?)")) {
            i.setString(1, key);
            i.setLong(2, value);
            i.executeUpdate();
        }
    }

    @Override
    public void putState(String key, String value) {
        Objects.requireNonNull(key, "state key");
        if (value == null) {
            update(c -> {
                try (PreparedStatement s = c.prepareStatement("DELETE FROM " + statesTable + " WHERE state_key = ?")) {
                    s.setString(1, key);
                    s.executeUpdate();
                }
                return null;
            });
        } else {
            upsert(statesTable, "state_key", "state_value", key, value);
        }
    }

    @Override
    public Map<String, String> states() {
        Map<String, String> result = new LinkedHashMap<>();
        query("SELECT state_key, state_value FROM " + statesTable + " ORDER BY state_key",
                rs -> result.put(rs.getString(1), rs.getString(2)));
        return Collections.unmodifiableMap(result);
    }

    @Override
    public boolean settle() {
        return groupCommit.settle();
    }

    @Override
    public AppendStatistics appendStatistics() {
        return groupCommit.statistics();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        groupCommit.close();
        closeQuietly(writer);
        writer = null;
    }

    // ---- helpers

    @FunctionalInterface
    private interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    @FunctionalInterface
    private interface RowHandler {
        void row(ResultSet rs) throws SQLException;
    }

    @FunctionalInterface
    private interface Refresh {
        void run() throws SQLException;
    }

    private void upsert(String table, String keyColumn, String valueColumn, String key, Object value) {
        update(c -> {
            try (PreparedStatement u = c.prepareStatement("UPDATE " + table + " SET " + valueColumn + " = ? WHERE "
                    + keyColumn + " = ?")) {
                u.setObject(1, value);
                u.setString(2, key);
                if (u.executeUpdate() > 0) {
                    return null;
                }
            }
            try (PreparedStatement i = c.prepareStatement("INSERT INTO " + table + " (" + keyColumn + ", "
                    + valueColumn + ") VALUES (?, ?)")) {
                i.setString(1, key);
                i.setObject(2, value);
                i.executeUpdate();
            }
            return null;
        });
    }

    private <T> T update(Work<T> work) {
        return update(work, null);
    }

    /** Runs {@code work} in one transaction on a fresh connection; metadata changes never interleave. */
    private <T> T update(Work<T> work, Refresh afterCommit) {
        checkOpen();
        synchronized (metadataLock) {
            try (Connection c = open()) {
                boolean autoCommit = c.getAutoCommit();
                c.setAutoCommit(false);
                try {
                    T result = work.run(c);
                    c.commit();
                    return result;
                } catch (SQLException | RuntimeException e) {
                    c.rollback();
                    throw e;
                } finally {
                    c.setAutoCommit(autoCommit);
                    if (afterCommit != null) {
                        afterCommit.run();
                    }
                }
            } catch (SQLException e) {
                throw new RecoveryLogException("recovery log " + description + ": " + e.getMessage(), e);
            }
        }
    }

    private void query(String sql, RowHandler handler) {
        checkOpen();
        try (Connection c = open(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                handler.row(rs);
            }
        } catch (SQLException e) {
            throw new RecoveryLogException("recovery log " + description + ": " + e.getMessage(), e);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("recovery log " + description + " is closed");
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // nothing more to do
            }
        }
    }

    @Override
    public String toString() {
        return "JdbcRecoveryLog[" + description + ", " + entries + "]";
    }
}
