package org.phalanx.requestmanager.session;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.analysis.InSubqueries;
import org.phalanx.requestmanager.analysis.SqlAnalysis;
import org.phalanx.requestmanager.analysis.SqlAnalyzer;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;

/**
 * A write on regular tables that reads the session's temporary tables through {@code IN (SELECT
 * ... FROM tmp ...)} — as ORMs run bulk changes of an entity stored in several tables, Hibernate
 * on MariaDB for one — becomes a write like any other: each such subquery is run once where the
 * temporary tables live and written in as its values, {@code IN (1, 2, 3)}. The statement then
 * runs on every backend and in the recovery log's replay, which have no such table.
 */
final class TemporaryReads {
    /** Beyond this, a statement with every value written in would be unreasonably long. */
    static final int MAX_VALUES = 100_000;

    /** Runs a subquery where the temporary tables live. */
    @FunctionalInterface
    interface Home {
        Result read(Request subquery) throws SQLException;
    }

    private TemporaryReads() {
    }

    /**
     * The write with its {@code IN} subqueries over temporary tables replaced by their values, or
     * null when it has none that can be (the caller refuses it).
     */
    static String inlined(Request r, SqlAnalyzer analyzer, TemporaryTableNames names, Home home) throws SQLException {
        String sql = r.sql();
        List<InSubqueries.Span> spans = InSubqueries.of(sql);
        StringBuilder out = new StringBuilder(sql.length());
        int copied = 0;
        for (InSubqueries.Span span : spans) {
            String select = span.select(sql);
            SqlAnalysis a = analyzer.analyze(select);
            if (select.indexOf('?') >= 0 || !names.readsOnlyTemporary(a)) {
                continue; // parameters are numbered across the whole statement; regular tables stay as they are
            }
            out.append(sql, copied, span.open()).append('(').append(values(home, select, r)).append(')');
            copied = span.close() + 1;
        }
        if (copied == 0) {
            return null;
        }
        return out.append(sql, copied, sql.length()).toString();
    }

    private static String values(Home home, String select, Request r) throws SQLException {
        List<String> literals = new ArrayList<>();
        try (Result result = home.read(new Request(select, List.of(), Request.Expect.ROWS, null, 0, 0,
                r.queryTimeoutSeconds()))) {
            if (result instanceof Result.Rows rows) {
                for (Object[] row : rows.prefix()) {
                    add(literals, row[0]);
                }
                ResultSet rs = rows.resultSet();
                while (rs.next()) {
                    add(literals, rs.getObject(1));
                }
            } else if (result instanceof Result.Cached cached) {
                for (Object[] row : cached.rows()) {
                    add(literals, row[0]);
                }
            }
        }
        return literals.isEmpty() ? "NULL" : String.join(", ", literals); // IN (NULL) matches nothing
    }

    private static void add(List<String> literals, Object value) throws SQLException {
        if (literals.size() == MAX_VALUES) {
            throw new SQLFeatureNotSupportedException("a subquery over this session's temporary tables returned more than "
                    + MAX_VALUES + " values, too many to write into the statement for the other backends",
                    SqlState.FEATURE_NOT_SUPPORTED.code());
        }
        literals.add(literal(value));
    }

    private static String literal(Object value) throws SQLException {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof Number) {
            return value.toString();
        }
        if (value instanceof byte[] bytes) {
            return "X'" + HexFormat.of().formatHex(bytes) + "'";
        }
        String text = value.toString();
        if (text.indexOf('\\') >= 0) { // engines read a backslash in a literal differently (MariaDB: an escape)
            throw new SQLFeatureNotSupportedException("a value of a subquery over this session's temporary tables holds"
                    + " a backslash, which the engines read differently in a literal", SqlState.FEATURE_NOT_SUPPORTED.code());
        }
        return "'" + text.replace("'", "''") + "'";
    }
}
