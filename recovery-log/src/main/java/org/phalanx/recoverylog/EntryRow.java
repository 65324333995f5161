package org.phalanx.recoverylog;

import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * An entry as a row of the JDBC log's entries table: {@code kind} is the entry's letter,
 * {@code params} the parameter list in {@link ValueEncoding}, {@code backends} the URL-encoded
 * names joined by commas. Read rows are decoded by {@link EntryReader}, as the file log's records are.
 */
record EntryRow(long position, long transactionId, String kind, String login, String sql, byte[] encodedParams,
                String joinedBackends) implements StoredEntry {

    /** The columns, in the order {@link #bind} and {@link #read} use. */
    static final String COLUMNS = "log_position, transaction_id, kind, login, sql_text, params, backends";

    /** Sets the insert's seven parameters, in {@link #COLUMNS} order, to {@code e}. */
    static void bind(PreparedStatement insert, LogEntry e) throws SQLException {
        insert.setLong(1, e.position());
        insert.setLong(2, e.transactionId());
        insert.setString(3, String.valueOf(StoredEntry.letter(e.kind())));
        insert.setString(4, e.login());
        insert.setString(5, e.sql());
        insert.setBytes(6, ValueEncoding.encodeList(e.params()));
        insert.setString(7, joinBackends(e.backends()));
    }

    /** The current row of a query selecting {@link #COLUMNS}. */
    static EntryRow read(ResultSet rows) throws SQLException {
        return new EntryRow(rows.getLong(1), rows.getLong(2), rows.getString(3), rows.getString(4),
                rows.getString(5), rows.getBytes(6), rows.getString(7));
    }

    @Override
    public int kindLetter() {
        return kind == null || kind.isEmpty() ? -1 : kind.charAt(0);
    }

    @Override
    public List<Object> params() throws IOException {
        return ValueEncoding.decodeList(encodedParams);
    }

    @Override
    public Set<String> backends() throws IOException {
        try {
            return splitBackends(joinedBackends);
        } catch (IllegalArgumentException e) { // a broken %-escape
            throw new IOException(e.getMessage(), e);
        }
    }

    static String joinBackends(Set<String> backends) {
        StringBuilder b = new StringBuilder();
        for (String name : backends) {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(URLEncoder.encode(name, StandardCharsets.UTF_8));
        }
        return b.toString();
    }

    static Set<String> splitBackends(String joined) {
        Set<String> names = new LinkedHashSet<>();
        if (joined != null && !joined.isEmpty()) {
            for (String part : joined.split(",", -1)) {
                names.add(URLDecoder.decode(part, StandardCharsets.UTF_8));
            }
        }
        return names;
    }
}
