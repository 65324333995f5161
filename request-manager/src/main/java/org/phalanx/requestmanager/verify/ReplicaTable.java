package org.phalanx.requestmanager.verify;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The queries verification runs on one replica's table, through that replica's snapshot: chunk
 * bounds (on the reference replica), chunk checksums and per-key row hashes, all computed by the
 * engine itself.
 */
final class ReplicaTable {
    private final ReplicaSnapshot replica;
    private final TableShape shape;
    private final String table;
    private final List<String> key;

    ReplicaTable(ReplicaSnapshot replica, TableShape shape) {
        this.replica = replica;
        this.shape = shape;
        this.table = CanonicalRow.quoted(replica.quote(), shape.name());
        this.key = shape.key().stream().map(k -> CanonicalRow.quoted(replica.quote(), k)).toList();
    }

    ReplicaSnapshot replica() {
        return replica;
    }

    String name() {
        return replica.name();
    }

    TableShape shape() {
        return shape;
    }

    /** Rows in the table at the snapshot (for the progress estimate). */
    long count() throws SQLException {
        try (PreparedStatement ps = replica.connection().prepareStatement("SELECT COUNT(*) FROM " + table);
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * The key {@code chunkRows} rows after {@code after} (from the first row when null): the upper
     * bound of the next chunk, or null when fewer rows remain (the chunk then runs to the end).
     */
    List<Object> nextBound(List<Object> after, int chunkRows) throws SQLException {
        KeyRange from = new KeyRange(after, null);
        String sql = "SELECT " + String.join(", ", key) + " FROM " + table + from.where(key) + " ORDER BY "
                + String.join(", ", key) + " LIMIT 1 OFFSET " + (chunkRows - 1);
        try (PreparedStatement ps = replica.connection().prepareStatement(sql)) {
            from.bind(ps, 1);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                List<Object> bound = new ArrayList<>(key.size());
                for (int i = 1; i <= key.size(); i++) {
                    bound.add(rs.getObject(i));
                }
                return bound;
            }
        }
    }

    /** The count and hash sum of the rows in the range (every row for {@link KeyRange#ALL} or an unkeyed table). */
    ChunkChecksum checksum(KeyRange range) throws SQLException {
        String sql = "SELECT COUNT(*), SUM(" + CanonicalRow.rowHash(replica.engine(), shape, replica.quote()) + ") FROM "
                + table + range.where(key);
        try (PreparedStatement ps = replica.connection().prepareStatement(sql)) {
            range.bind(ps, 1);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long rows = rs.getLong(1);
                String sum = rs.getString(2);
                // SUM is an integer on SQLite, a numeric on PostgreSQL and a decimal on MariaDB: compared as text of a whole number
                return new ChunkChecksum(rows, sum == null ? BigInteger.ZERO : new BigDecimal(sum).toBigIntegerExact());
            }
        }
    }

    /** Each row of the range by its key's canonical text (one entry per key column), with its hash. */
    Map<List<String>, Long> rowHashes(KeyRange range) throws SQLException {
        List<String> keyTexts = new ArrayList<>();
        for (String k : shape.key()) {
            TableColumn c = shape.column(k).orElseThrow();
            keyTexts.add(CanonicalRow.valueText(replica.engine(), c, CanonicalRow.quoted(replica.quote(), c.name())));
        }
        String sql = "SELECT " + String.join(", ", keyTexts) + ", "
                + CanonicalRow.rowHash(replica.engine(), shape, replica.quote()) + " FROM " + table + range.where(key);
        Map<List<String>, Long> rows = new LinkedHashMap<>();
        try (PreparedStatement ps = replica.connection().prepareStatement(sql)) {
            range.bind(ps, 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<String> k = new ArrayList<>(keyTexts.size());
                    for (int i = 1; i <= keyTexts.size(); i++) {
                        k.add(rs.getString(i));
                    }
                    rows.put(List.copyOf(k), rs.getLong(keyTexts.size() + 1));
                }
            }
        }
        return rows;
    }
}
