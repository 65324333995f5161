package org.phalanx.bench.workload;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Small auto-commit writes: {@code UPDATE accounts SET abalance = abalance + ? WHERE aid = ?}
 * on a random account, prepared once per client (the update of pgbench's simple-update script).
 */
public final class SmallWrites implements Workload {
    static final String UPDATE = "UPDATE accounts SET abalance = abalance + ? WHERE aid = ?";
    private final int rows;

    public SmallWrites(int rows) {
        this.rows = rows;
    }

    @Override
    public String name() {
        return "small writes";
    }

    @Override
    public List<String> requestClasses() {
        return List.of("update");
    }

    @Override
    public void load(Connection c) throws SQLException {
        PointReads.loadAccounts(c, rows);
    }

    @Override
    public Client client(Connection c, long seed) throws SQLException {
        PreparedStatement ps = c.prepareStatement(UPDATE);
        SplittableRandom random = new SplittableRandom(seed);
        return new Client() {
            @Override
            public int next() {
                return 0;
            }

            @Override
            public void execute(int requestClass) throws SQLException {
                ps.setInt(1, random.nextInt(-5000, 5001));
                ps.setInt(2, 1 + random.nextInt(rows));
                if (ps.executeUpdate() != 1) {
                    throw new SQLException("account not updated");
                }
            }
        };
    }
}
