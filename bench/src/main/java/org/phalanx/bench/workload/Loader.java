package org.phalanx.bench.workload;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/** Helpers for loading datasets with plain JDBC, the same on SQLite, H2 and PostgreSQL. */
public final class Loader {
    private static final int BATCH = 1000;

    private Loader() {
    }

    /** Runs each statement; "DROP TABLE IF EXISTS" and "CREATE ..." work alike on the three engines. */
    public static void ddl(Connection c, String... statements) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    /** Fills one row's parameters. */
    @FunctionalInterface
    public interface Row {
        void bind(PreparedStatement ps, int i) throws SQLException;
    }

    /** Inserts rows 1..count in batches, in one transaction. */
    public static void insert(Connection c, String sql, int count, Row row) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 1; i <= count; i++) {
                row.bind(ps, i);
                ps.addBatch();
                if (i % BATCH == 0) {
                    ps.executeBatch();
                }
            }
            ps.executeBatch();
            c.commit();
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }
}
