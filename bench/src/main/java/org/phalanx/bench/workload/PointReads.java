package org.phalanx.bench.workload;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Point reads by primary key on a pgbench-like {@code accounts} table (the statement of the
 * pgpool reference in notes/measuring.md): {@code SELECT abalance FROM accounts WHERE aid = ?},
 * prepared once per client.
 */
public final class PointReads implements Workload {
    static final String SELECT = "SELECT abalance FROM accounts WHERE aid = ?";
    private final int rows;

    public PointReads(int rows) {
        this.rows = rows;
    }

    @Override
    public String name() {
        return "point reads";
    }

    @Override
    public List<String> requestClasses() {
        return List.of("point-read");
    }

    @Override
    public void load(Connection c) throws SQLException {
        loadAccounts(c, rows);
    }

    /** The accounts table, shared with {@link SmallWrites}. */
    public static void loadAccounts(Connection c, int rows) throws SQLException {
        Loader.ddl(c, "DROP TABLE IF EXISTS accounts",
                "CREATE TABLE accounts (aid INTEGER PRIMARY KEY, bid INTEGER NOT NULL, abalance INTEGER NOT NULL,"
                        + " filler VARCHAR(84))");
        String filler = " ".repeat(84);
        Loader.insert(c, "INSERT INTO accounts (aid, bid, abalance, filler) VALUES (?, ?, ?, ?)", rows, (ps, i) -> {
            ps.setInt(1, i);
            ps.setInt(2, 1 + (i - 1) / 100_000);
            ps.setInt(3, 0);
            ps.setString(4, filler);
        });
    }

    @Override
    public Client client(Connection c, long seed) throws SQLException {
        PreparedStatement ps = c.prepareStatement(SELECT);
        SplittableRandom random = new SplittableRandom(seed);
        return new Client() {
            @Override
            public int next() {
                return 0;
            }

            @Override
            public void execute(int requestClass) throws SQLException {
                ps.setInt(1, 1 + random.nextInt(rows));
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new SQLException("account not found");
                    }
                    rs.getInt(1);
                }
            }
        };
    }
}
