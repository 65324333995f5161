package org.phalanx.recoverylog.dump;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Small helpers for SQLite files in tests. */
final class Sqlite {
    private Sqlite() {
    }

    static Connection open(Path file) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + file);
    }

    static Connection create(Path file, String... statements) throws SQLException {
        Connection c = open(file);
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
        return c;
    }

    static List<List<Object>> query(Connection c, String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    Object v = rs.getObject(i);
                    row.add(v instanceof Integer x ? Long.valueOf(x) : v);
                }
                rows.add(row);
            }
        }
        return rows;
    }

    static Object single(Connection c, String sql) throws SQLException {
        return query(c, sql).get(0).get(0);
    }
}
