package org.phalanx.controller.it;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * A compact TPC-C (the schema, the loader and the five transactions of TPC-C 5.11, after
 * BenchBase's implementation: same statements, same order, same SELECT ... FOR UPDATE) at a scale
 * small enough for a test: {@code warehouses} warehouses of 10 districts, 30 customers and 30
 * orders per district, 200 items. Portable SQL (PostgreSQL, MariaDB, SQLite), prepared statements,
 * explicit transactions, every value (timestamps included) chosen by the client, so every replica
 * of a database applying the same statements ends up with the same rows.
 *
 * <p>Departures from BenchBase, each to keep the replicas' outcome a function of the statements:
 * Payment changes the customer's balance, year-to-date payment and payment count by increments
 * (BenchBase writes back values read before; TPC-C allows either) and reads C_DATA after that
 * update, under its row lock; the scale and the NURand constants are shrunk to the tiny tables.
 */
final class Tpcc {
    static final int DISTRICTS = 10;
    static final int CUSTOMERS = 30;   // per district; also the initial orders per district
    static final int ITEMS = 200;
    /** Initial orders from this one on are undelivered (in NEW_ORDER): the last 30 %, as in TPC-C. */
    static final int FIRST_NEW_ORDER = CUSTOMERS - CUSTOMERS * 3 / 10 + 1;
    /** Last-name numbers are 0..LAST_NAMES-1 (TPC-C: 0..999 for 3000 customers). */
    static final int LAST_NAMES = CUSTOMERS / 2;
    static final int INVALID_ITEM = ITEMS + 1_000;
    private static final String[] SYLLABLES = {"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};
    private static final Timestamp LOADED = Timestamp.valueOf("2024-01-01 00:00:00");

    /** Every table with an ORDER BY giving its full order (its primary key; all columns for HISTORY, which has none). */
    static final Map<String, String> TABLES;

    static {
        Map<String, String> t = new LinkedHashMap<>();
        t.put("warehouse", "w_id");
        t.put("district", "d_w_id, d_id");
        t.put("customer", "c_w_id, c_d_id, c_id");
        t.put("history", "h_c_w_id, h_c_d_id, h_c_id, h_w_id, h_d_id, h_date, h_amount, h_data");
        t.put("item", "i_id");
        t.put("stock", "s_w_id, s_i_id");
        t.put("oorder", "o_w_id, o_d_id, o_id");
        t.put("new_order", "no_w_id, no_d_id, no_o_id");
        t.put("order_line", "ol_w_id, ol_d_id, ol_o_id, ol_number");
        TABLES = java.util.Collections.unmodifiableMap(t);
    }

    enum Type {
        NEW_ORDER(45), PAYMENT(43), ORDER_STATUS(4), DELIVERY(4), STOCK_LEVEL(4);

        final int weight;

        Type(int weight) {
            this.weight = weight;
        }
    }

    /** What the terminals did, per transaction type. */
    static final class Stats {
        final LongAdder[] committed = adders();
        /** Rolled back by the transaction itself: New-Order's unused item; Delivery finding its new order gone (READ COMMITTED). */
        final LongAdder[] rolledBack = adders();
        /** Refused with 40001, rolled back and run again with the same input. */
        final LongAdder[] retried = adders();
        /** The first refusals' messages (10, or -Dtpcc.refusals), with the transaction and statement that got them. */
        final java.util.Queue<String> refusals = new java.util.concurrent.ConcurrentLinkedQueue<>();

        private static LongAdder[] adders() {
            LongAdder[] a = new LongAdder[Type.values().length];
            for (int i = 0; i < a.length; i++) {
                a[i] = new LongAdder();
            }
            return a;
        }

        long committed(Type t) {
            return committed[t.ordinal()].sum();
        }

        long rolledBack(Type t) {
            return rolledBack[t.ordinal()].sum();
        }

        long retried(Type t) {
            return retried[t.ordinal()].sum();
        }

        long total(LongAdder[] a) {
            long n = 0;
            for (LongAdder x : a) {
                n += x.sum();
            }
            return n;
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder();
            for (Type t : Type.values()) {
                b.append(String.format("%n  %-12s committed %5d  rolled back %4d  retried (40001) %5d",
                        t, committed(t), rolledBack(t), retried(t)));
            }
            b.append(String.format("%n  %-12s committed %5d  rolled back %4d  retried (40001) %5d",
                    "total", total(committed), total(rolledBack), total(retried)));
            return b.toString();
        }
    }

    final int warehouses;
    /** " FOR UPDATE" where the engine has it (not SQLite, whose writers lock the whole file anyway, as in BenchBase's SQLite dialect). */
    private final String forUpdate;

    Tpcc(int warehouses, boolean forUpdate) {
        this.warehouses = warehouses;
        this.forUpdate = forUpdate ? " FOR UPDATE" : "";
    }

    // ---------------------------------------------------------------- schema

    void createSchema(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("""
                    CREATE TABLE warehouse (
                      w_id INTEGER NOT NULL, w_ytd DECIMAL(12,2) NOT NULL, w_tax DECIMAL(4,4) NOT NULL,
                      w_name VARCHAR(10) NOT NULL, w_street_1 VARCHAR(20) NOT NULL, w_street_2 VARCHAR(20) NOT NULL,
                      w_city VARCHAR(20) NOT NULL, w_state CHAR(2) NOT NULL, w_zip CHAR(9) NOT NULL,
                      PRIMARY KEY (w_id))""");
            s.executeUpdate("""
                    CREATE TABLE district (
                      d_w_id INTEGER NOT NULL, d_id INTEGER NOT NULL, d_ytd DECIMAL(12,2) NOT NULL,
                      d_tax DECIMAL(4,4) NOT NULL, d_next_o_id INTEGER NOT NULL, d_name VARCHAR(10) NOT NULL,
                      d_street_1 VARCHAR(20) NOT NULL, d_street_2 VARCHAR(20) NOT NULL, d_city VARCHAR(20) NOT NULL,
                      d_state CHAR(2) NOT NULL, d_zip CHAR(9) NOT NULL,
                      PRIMARY KEY (d_w_id, d_id))""");
            s.executeUpdate("""
                    CREATE TABLE customer (
                      c_w_id INTEGER NOT NULL, c_d_id INTEGER NOT NULL, c_id INTEGER NOT NULL,
                      c_discount DECIMAL(4,4) NOT NULL, c_credit CHAR(2) NOT NULL, c_last VARCHAR(16) NOT NULL,
                      c_first VARCHAR(16) NOT NULL, c_credit_lim DECIMAL(12,2) NOT NULL, c_balance DECIMAL(12,2) NOT NULL,
                      c_ytd_payment DECIMAL(12,2) NOT NULL, c_payment_cnt INTEGER NOT NULL, c_delivery_cnt INTEGER NOT NULL,
                      c_street_1 VARCHAR(20) NOT NULL, c_street_2 VARCHAR(20) NOT NULL, c_city VARCHAR(20) NOT NULL,
                      c_state CHAR(2) NOT NULL, c_zip CHAR(9) NOT NULL, c_phone CHAR(16) NOT NULL,
                      c_since TIMESTAMP NOT NULL, c_middle CHAR(2) NOT NULL, c_data VARCHAR(500) NOT NULL,
                      PRIMARY KEY (c_w_id, c_d_id, c_id))""");
            s.executeUpdate("""
                    CREATE TABLE history (
                      h_c_id INTEGER NOT NULL, h_c_d_id INTEGER NOT NULL, h_c_w_id INTEGER NOT NULL,
                      h_d_id INTEGER NOT NULL, h_w_id INTEGER NOT NULL, h_date TIMESTAMP NOT NULL,
                      h_amount DECIMAL(6,2) NOT NULL, h_data VARCHAR(24) NOT NULL)""");
            s.executeUpdate("""
                    CREATE TABLE item (
                      i_id INTEGER NOT NULL, i_name VARCHAR(24) NOT NULL, i_price DECIMAL(5,2) NOT NULL,
                      i_data VARCHAR(50) NOT NULL, i_im_id INTEGER NOT NULL,
                      PRIMARY KEY (i_id))""");
            s.executeUpdate("""
                    CREATE TABLE stock (
                      s_w_id INTEGER NOT NULL, s_i_id INTEGER NOT NULL, s_quantity INTEGER NOT NULL,
                      s_ytd INTEGER NOT NULL, s_order_cnt INTEGER NOT NULL, s_remote_cnt INTEGER NOT NULL,
                      s_data VARCHAR(50) NOT NULL,
                      s_dist_01 CHAR(24) NOT NULL, s_dist_02 CHAR(24) NOT NULL, s_dist_03 CHAR(24) NOT NULL,
                      s_dist_04 CHAR(24) NOT NULL, s_dist_05 CHAR(24) NOT NULL, s_dist_06 CHAR(24) NOT NULL,
                      s_dist_07 CHAR(24) NOT NULL, s_dist_08 CHAR(24) NOT NULL, s_dist_09 CHAR(24) NOT NULL,
                      s_dist_10 CHAR(24) NOT NULL,
                      PRIMARY KEY (s_w_id, s_i_id))""");
            s.executeUpdate("""
                    CREATE TABLE oorder (
                      o_w_id INTEGER NOT NULL, o_d_id INTEGER NOT NULL, o_id INTEGER NOT NULL,
                      o_c_id INTEGER NOT NULL, o_carrier_id INTEGER NULL, o_ol_cnt INTEGER NOT NULL,
                      o_all_local INTEGER NOT NULL, o_entry_d TIMESTAMP NOT NULL,
                      PRIMARY KEY (o_w_id, o_d_id, o_id))""");
            s.executeUpdate("""
                    CREATE TABLE new_order (
                      no_w_id INTEGER NOT NULL, no_d_id INTEGER NOT NULL, no_o_id INTEGER NOT NULL,
                      PRIMARY KEY (no_w_id, no_d_id, no_o_id))""");
            s.executeUpdate("""
                    CREATE TABLE order_line (
                      ol_w_id INTEGER NOT NULL, ol_d_id INTEGER NOT NULL, ol_o_id INTEGER NOT NULL,
                      ol_number INTEGER NOT NULL, ol_i_id INTEGER NOT NULL, ol_delivery_d TIMESTAMP NULL,
                      ol_amount DECIMAL(6,2) NOT NULL, ol_supply_w_id INTEGER NOT NULL, ol_quantity INTEGER NOT NULL,
                      ol_dist_info CHAR(24) NOT NULL,
                      PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))""");
            s.executeUpdate("CREATE INDEX idx_customer_name ON customer (c_w_id, c_d_id, c_last, c_first)");
            s.executeUpdate("CREATE INDEX idx_order ON oorder (o_w_id, o_d_id, o_c_id, o_id)");
        }
    }

    // ---------------------------------------------------------------- loader

    /** Typed SQL NULL for {@link Batch#add}. */
    private record Null(int sqlType) {
    }

    /** A prepared INSERT sent in batches of 500 through the driver. */
    private static final class Batch implements AutoCloseable {
        private final PreparedStatement ps;
        private int pending;
        long rows;

        Batch(Connection c, String sql) throws SQLException {
            ps = c.prepareStatement(sql);
        }

        void add(Object... values) throws SQLException {
            bind(ps, values);
            ps.addBatch();
            rows++;
            if (++pending == 500) {
                flush();
            }
        }

        void flush() throws SQLException {
            if (pending > 0) {
                ps.executeBatch();
                pending = 0;
            }
        }

        @Override
        public void close() throws SQLException {
            try {
                flush();
            } finally {
                ps.close();
            }
        }
    }

    /** Loads the initial database (TPC-C 4.3.3.1, scaled) through {@code c}, one transaction per table; returns the rows per table. */
    Map<String, Long> load(Connection c, long seed) throws SQLException {
        SplittableRandom r = new SplittableRandom(seed);
        Map<String, Long> rows = new LinkedHashMap<>();
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            try (Batch b = new Batch(c, "INSERT INTO item (i_id, i_name, i_price, i_data, i_im_id) VALUES (?, ?, ?, ?, ?)")) {
                for (int i = 1; i <= ITEMS; i++) {
                    b.add(i, astring(r, 14, 24), money(r, 100, 10_000), data(r), uniform(r, 1, 10_000));
                }
                rows.put("item", commit(c, b));
            }
            try (Batch b = new Batch(c, "INSERT INTO warehouse (w_id, w_ytd, w_tax, w_name, w_street_1, w_street_2, w_city,"
                    + " w_state, w_zip) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (int w = 1; w <= warehouses; w++) {
                    // W_YTD = the initial HISTORY amounts of its customers (TPC-C: 300,000.00 for 30,000 customers)
                    b.add(w, new BigDecimal("10.00").multiply(BigDecimal.valueOf((long) DISTRICTS * CUSTOMERS)), tax(r),
                            astring(r, 6, 10), astring(r, 10, 20), astring(r, 10, 20), astring(r, 10, 20),
                            astring(r, 2, 2), zip(r));
                }
                rows.put("warehouse", commit(c, b));
            }
            try (Batch b = new Batch(c, "INSERT INTO stock (s_w_id, s_i_id, s_quantity, s_ytd, s_order_cnt, s_remote_cnt, s_data,"
                    + " s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09,"
                    + " s_dist_10) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (int w = 1; w <= warehouses; w++) {
                    for (int i = 1; i <= ITEMS; i++) {
                        Object[] v = new Object[17];
                        v[0] = w;
                        v[1] = i;
                        v[2] = uniform(r, 10, 100);
                        v[3] = 0;
                        v[4] = 0;
                        v[5] = 0;
                        v[6] = data(r);
                        for (int d = 0; d < DISTRICTS; d++) {
                            v[7 + d] = astring(r, 24, 24);
                        }
                        b.add(v);
                    }
                }
                rows.put("stock", commit(c, b));
            }
            try (Batch b = new Batch(c, "INSERT INTO district (d_w_id, d_id, d_ytd, d_tax, d_next_o_id, d_name, d_street_1,"
                    + " d_street_2, d_city, d_state, d_zip) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (int w = 1; w <= warehouses; w++) {
                    for (int d = 1; d <= DISTRICTS; d++) {
                        b.add(w, d, new BigDecimal("10.00").multiply(BigDecimal.valueOf(CUSTOMERS)), tax(r), CUSTOMERS + 1,
                                astring(r, 6, 10), astring(r, 10, 20), astring(r, 10, 20), astring(r, 10, 20),
                                astring(r, 2, 2), zip(r));
                    }
                }
                rows.put("district", commit(c, b));
            }
            try (Batch b = new Batch(c, "INSERT INTO customer (c_w_id, c_d_id, c_id, c_discount, c_credit, c_last, c_first,"
                    + " c_credit_lim, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_street_1, c_street_2, c_city,"
                    + " c_state, c_zip, c_phone, c_since, c_middle, c_data)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (int w = 1; w <= warehouses; w++) {
                    for (int d = 1; d <= DISTRICTS; d++) {
                        for (int cu = 1; cu <= CUSTOMERS; cu++) {
                            // the first LAST_NAMES customers take every last name once, the others NURand ones
                            String last = lastName(cu <= LAST_NAMES ? cu - 1 : nurand(r, 7, 0, LAST_NAMES - 1));
                            b.add(w, d, cu, money(r, 0, 5_000).movePointLeft(2), uniform(r, 1, 10) == 1 ? "BC" : "GC",
                                    last, astring(r, 8, 16), new BigDecimal("50000.00"), new BigDecimal("-10.00"),
                                    new BigDecimal("10.00"), 1, 0, astring(r, 10, 20), astring(r, 10, 20),
                                    astring(r, 10, 20), astring(r, 2, 2), zip(r), nstring(r, 16), LOADED, "OE",
                                    astring(r, 300, 500));
                        }
                    }
                }
                rows.put("customer", commit(c, b));
            }
            try (Batch b = new Batch(c, "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount,"
                    + " h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (int w = 1; w <= warehouses; w++) {
                    for (int d = 1; d <= DISTRICTS; d++) {
                        for (int cu = 1; cu <= CUSTOMERS; cu++) {
                            b.add(cu, d, w, d, w, LOADED, new BigDecimal("10.00"), astring(r, 12, 24));
                        }
                    }
                }
                rows.put("history", commit(c, b));
            }
            try (Batch orders = new Batch(c, "INSERT INTO oorder (o_w_id, o_d_id, o_id, o_c_id, o_carrier_id, o_ol_cnt,"
                    + " o_all_local, o_entry_d) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
                 Batch newOrders = new Batch(c, "INSERT INTO new_order (no_w_id, no_d_id, no_o_id) VALUES (?, ?, ?)");
                 Batch lines = new Batch(c, "INSERT INTO order_line (ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id,"
                         + " ol_delivery_d, ol_amount, ol_supply_w_id, ol_quantity, ol_dist_info)"
                         + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (int w = 1; w <= warehouses; w++) {
                    for (int d = 1; d <= DISTRICTS; d++) {
                        int[] customers = permutation(r, CUSTOMERS);
                        for (int o = 1; o <= CUSTOMERS; o++) {
                            boolean delivered = o < FIRST_NEW_ORDER;
                            int lineCount = uniform(r, 5, 15);
                            orders.add(w, d, o, customers[o - 1], delivered ? (Object) uniform(r, 1, 10) : new Null(Types.INTEGER),
                                    lineCount, 1, LOADED);
                            if (!delivered) {
                                newOrders.add(w, d, o);
                            }
                            for (int l = 1; l <= lineCount; l++) {
                                lines.add(w, d, o, l, uniform(r, 1, ITEMS), delivered ? LOADED : new Null(Types.TIMESTAMP),
                                        delivered ? new BigDecimal("0.00") : money(r, 1, 999_999), w, 5, astring(r, 24, 24));
                            }
                        }
                    }
                }
                orders.flush();
                newOrders.flush();
                lines.flush();
                c.commit();
                rows.put("oorder", orders.rows);
                rows.put("new_order", newOrders.rows);
                rows.put("order_line", lines.rows);
            }
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
        return rows;
    }

    private static long commit(Connection c, Batch b) throws SQLException {
        b.flush();
        c.commit();
        return b.rows;
    }

    // ---------------------------------------------------------------- random data (TPC-C 4.3.2, 2.1.6)

    static int uniform(SplittableRandom r, int lo, int hi) {
        return lo + r.nextInt(hi - lo + 1);
    }

    /** NURand(A, x, y) with a fixed C. */
    static int nurand(SplittableRandom r, int a, int x, int y) {
        int c = a / 3;
        return (((uniform(r, 0, a) | uniform(r, x, y)) + c) % (y - x + 1)) + x;
    }

    static String lastName(int number) {
        return SYLLABLES[number / 100 % 10] + SYLLABLES[number / 10 % 10] + SYLLABLES[number % 10];
    }

    private static String astring(SplittableRandom r, int min, int max) {
        int n = uniform(r, min, max);
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            int k = r.nextInt(52);
            b.append((char) (k < 26 ? 'a' + k : 'A' + k - 26));
        }
        return b.toString();
    }

    private static String nstring(SplittableRandom r, int n) {
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            b.append((char) ('0' + r.nextInt(10)));
        }
        return b.toString();
    }

    private static String zip(SplittableRandom r) {
        return nstring(r, 4) + "11111";
    }

    /** I_DATA / S_DATA: 26..50 characters, 10 % of them containing "ORIGINAL". */
    private static String data(SplittableRandom r) {
        String s = astring(r, 26, 50);
        if (uniform(r, 1, 10) == 1) {
            int at = r.nextInt(s.length() - 8);
            s = s.substring(0, at) + "ORIGINAL" + s.substring(at + 8);
        }
        return s;
    }

    /** A uniform amount of cents in [lo, hi], as a DECIMAL with scale 2. */
    private static BigDecimal money(SplittableRandom r, int loCents, int hiCents) {
        return BigDecimal.valueOf(uniform(r, loCents, hiCents), 2);
    }

    private static BigDecimal tax(SplittableRandom r) {
        return BigDecimal.valueOf(uniform(r, 0, 2_000), 4);
    }

    private static int[] permutation(SplittableRandom r, int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i + 1;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    private static void bind(PreparedStatement ps, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            if (values[i] instanceof Null n) {
                ps.setNull(i + 1, n.sqlType());
            } else {
                ps.setObject(i + 1, values[i]);
            }
        }
    }

    // ---------------------------------------------------------------- terminals

    /** The transaction rolled itself back (not an error). */
    private static final class UserAbort extends Exception {
        UserAbort(String message) {
            super(message, null, false, false);
        }
    }

    /** A TPC-C terminal: one connection, a home warehouse, the standard mix, no keying or think time. */
    final class Terminal {
        private final Connection c;
        private final int w;
        private final SplittableRandom random;
        private final Stats stats;
        private final Map<String, PreparedStatement> statements = new HashMap<>();
        /** The statement running or last run, for error reports. */
        private String current;

        /** {@code c} must be in manual commit mode, at the isolation level wanted. */
        Terminal(Connection c, int homeWarehouse, long seed, Stats stats) {
            this.c = c;
            this.w = homeWarehouse;
            this.random = new SplittableRandom(seed);
            this.stats = stats;
        }

        /**
         * Runs transactions of the mix until {@code stop}; a transaction refused with 40001 is rolled
         * back and run again with the same input. Any other SQLException ends the terminal, with the
         * transaction and statement that got it in its message.
         */
        void run(BooleanSupplier stop) throws SQLException {
            while (!stop.getAsBoolean()) {
                Type type = next();
                long input = random.nextLong();
                while (true) {
                    try {
                        boolean committed = execute(type, new SplittableRandom(input));
                        (committed ? stats.committed : stats.rolledBack)[type.ordinal()].increment();
                        break;
                    } catch (SQLException e) {
                        rollbackQuietly(e);
                        if (!"40001".equals(e.getSQLState())) {
                            SQLException wrapped = new SQLException(type + " at \"" + current + "\": [" + e.getSQLState()
                                    + "] " + e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
                            throw wrapped;
                        }
                        stats.retried[type.ordinal()].increment();
                        if (stats.refusals.size() < Integer.getInteger("tpcc.refusals", 10)) {
                            stats.refusals.add(type + " at \"" + current + "\": " + e.getMessage());
                        }
                        if (stop.getAsBoolean()) {
                            return;
                        }
                    }
                }
            }
        }

        private void rollbackQuietly(SQLException cause) {
            try {
                c.rollback();
            } catch (SQLException e) {
                cause.addSuppressed(e);
            }
        }

        private Type next() {
            int x = uniform(random, 1, 100);
            for (Type t : Type.values()) {
                x -= t.weight;
                if (x <= 0) {
                    return t;
                }
            }
            throw new AssertionError();
        }

        /** One transaction; true when committed, false when it rolled itself back. */
        boolean execute(Type type, SplittableRandom r) throws SQLException {
            try {
                switch (type) {
                    case NEW_ORDER -> newOrder(r);
                    case PAYMENT -> payment(r);
                    case ORDER_STATUS -> orderStatus(r);
                    case DELIVERY -> delivery(r);
                    case STOCK_LEVEL -> stockLevel(r);
                }
                current = "COMMIT";
                c.commit();
                return true;
            } catch (UserAbort expected) {
                current = "ROLLBACK";
                c.rollback();
                return false;
            }
        }

        // -------------------------------------------------------- statements

        private PreparedStatement prepare(String sql) throws SQLException {
            current = sql;
            PreparedStatement ps = statements.get(sql);
            if (ps == null) {
                ps = c.prepareStatement(sql);
                statements.put(sql, ps);
            }
            return ps;
        }

        private ResultSet query(String sql, Object... params) throws SQLException {
            PreparedStatement ps = prepare(sql);
            bind(ps, params);
            return ps.executeQuery();
        }

        private int update(String sql, Object... params) throws SQLException {
            PreparedStatement ps = prepare(sql);
            bind(ps, params);
            return ps.executeUpdate();
        }

        private void updateOne(String sql, Object... params) throws SQLException {
            int n = update(sql, params);
            if (n != 1) {
                throw new IllegalStateException(n + " rows changed by " + sql + " with " + List.of(params));
            }
        }

        private Timestamp now() {
            return new Timestamp(System.currentTimeMillis() / 1000 * 1000);
        }

        private int customerId(SplittableRandom r) {
            return nurand(r, 15, 1, CUSTOMERS);
        }

        /** The customer named {@code last} in the middle of those ordered by first name (TPC-C 2.5.2.2). */
        private int customerByName(int cw, int cd, String last) throws SQLException {
            List<Integer> ids = new ArrayList<>();
            try (ResultSet rs = query("SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ?"
                    + " ORDER BY c_first", cw, cd, last)) {
                while (rs.next()) {
                    ids.add(rs.getInt(1));
                }
            }
            if (ids.isEmpty()) {
                throw new IllegalStateException("no customer named " + last + " in district " + cw + "/" + cd);
            }
            return ids.get((ids.size() - 1) / 2);
        }

        /** TPC-C 2.4: New-Order, 1 % of them rolled back on an unused item, as BenchBase does it. */
        private void newOrder(SplittableRandom r) throws SQLException, UserAbort {
            int d = uniform(r, 1, DISTRICTS);
            int cu = customerId(r);
            int count = uniform(r, 5, 15);
            int[] items = new int[count];
            int[] supply = new int[count];
            int[] quantities = new int[count];
            int allLocal = 1;
            for (int i = 0; i < count; i++) {
                items[i] = nurand(r, 63, 1, ITEMS);
                supply[i] = w;
                if (warehouses > 1 && uniform(r, 1, 100) == 1) {
                    do {
                        supply[i] = uniform(r, 1, warehouses);
                    } while (supply[i] == w);
                    allLocal = 0;
                }
                quantities[i] = uniform(r, 1, 10);
            }
            if (uniform(r, 1, 100) == 1) {
                items[count - 1] = INVALID_ITEM;
            }
            BigDecimal discount;
            try (ResultSet rs = query("SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = ? AND c_d_id = ?"
                    + " AND c_id = ?", w, d, cu)) {
                discount = one(rs).getBigDecimal(1);
            }
            BigDecimal wTax;
            try (ResultSet rs = query("SELECT w_tax FROM warehouse WHERE w_id = ?", w)) {
                wTax = one(rs).getBigDecimal(1);
            }
            int orderId;
            BigDecimal dTax;
            try (ResultSet rs = query("SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = ? AND d_id = ?" + forUpdate,
                    w, d)) {
                one(rs);
                orderId = rs.getInt(1);
                dTax = rs.getBigDecimal(2);
            }
            updateOne("UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?", w, d);
            updateOne("INSERT INTO oorder (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?)", orderId, d, w, cu, now(), count, allLocal);
            updateOne("INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)", orderId, d, w);
            // both batches are cleared whatever happens: a New-Order rolled back on its unused item
            // must not leave its lines in a statement the next New-Order reuses
            PreparedStatement stockUpdate = prepare("UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?,"
                    + " s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ? WHERE s_i_id = ? AND s_w_id = ?");
            PreparedStatement lineInsert = prepare("INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id,"
                    + " ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
            BigDecimal total = BigDecimal.ZERO;
            int brandGeneric = 0;
            try {
                for (int l = 1; l <= count; l++) {
                    int item = items[l - 1];
                    BigDecimal price;
                    String itemData;
                    try (ResultSet rs = query("SELECT i_price, i_name, i_data FROM item WHERE i_id = ?", item)) {
                        if (!rs.next()) {
                            // the expected rollback: only the last item of an order is ever unused
                            if (l != count || item != INVALID_ITEM) {
                                throw new IllegalStateException("item " + item + " not found");
                            }
                            throw new UserAbort("New-Order: item " + item + " is unused");
                        }
                        price = rs.getBigDecimal(1);
                        itemData = rs.getString(3);
                    }
                    int quantity;
                    String stockData;
                    String distInfo;
                    try (ResultSet rs = query("SELECT s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04,"
                            + " s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10 FROM stock"
                            + " WHERE s_i_id = ? AND s_w_id = ?" + forUpdate, item, supply[l - 1])) {
                        one(rs);
                        quantity = rs.getInt(1);
                        stockData = rs.getString(2);
                        distInfo = rs.getString(2 + d);
                    }
                    int ordered = quantities[l - 1];
                    quantity = quantity - ordered >= 10 ? quantity - ordered : quantity - ordered + 91;
                    bind(stockUpdate, quantity, ordered, supply[l - 1] == w ? 0 : 1, item, supply[l - 1]);
                    stockUpdate.addBatch();
                    BigDecimal amount = price.multiply(BigDecimal.valueOf(ordered));
                    total = total.add(amount);
                    if (itemData.contains("ORIGINAL") && stockData.contains("ORIGINAL")) {
                        brandGeneric++; // 'B' on the terminal's screen
                    }
                    bind(lineInsert, orderId, d, w, l, item, supply[l - 1], ordered, amount, distInfo);
                    lineInsert.addBatch();
                }
                current = "order_line batch of order " + w + "/" + d + "/" + orderId;
                lineInsert.executeBatch();
                current = "stock batch of order " + w + "/" + d + "/" + orderId;
                stockUpdate.executeBatch();
            } finally {
                lineInsert.clearBatch();
                stockUpdate.clearBatch();
            }
            total = total.multiply(BigDecimal.ONE.add(wTax).add(dTax)).multiply(BigDecimal.ONE.subtract(discount));
            if (total.signum() <= 0 || brandGeneric > count) {
                throw new IllegalStateException("New-Order total " + total);
            }
        }

        /** TPC-C 2.5: Payment, 60 % of customers by last name, 15 % of them in another warehouse. */
        private void payment(SplittableRandom r) throws SQLException {
            int d = uniform(r, 1, DISTRICTS);
            int cw = w;
            int cd = d;
            if (warehouses > 1 && uniform(r, 1, 100) > 85) {
                cd = uniform(r, 1, DISTRICTS);
                do {
                    cw = uniform(r, 1, warehouses);
                } while (cw == w);
            }
            boolean byName = uniform(r, 1, 100) <= 60;
            String last = byName ? lastName(nurand(r, 7, 0, LAST_NAMES - 1)) : null;
            int cu = byName ? 0 : customerId(r);
            BigDecimal amount = money(r, 100, 500_000);

            updateOne("UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?", amount, w);
            String wName;
            try (ResultSet rs = query("SELECT w_street_1, w_street_2, w_city, w_state, w_zip, w_name FROM warehouse"
                    + " WHERE w_id = ?", w)) {
                wName = one(rs).getString(6);
            }
            updateOne("UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?", amount, w, d);
            String dName;
            try (ResultSet rs = query("SELECT d_street_1, d_street_2, d_city, d_state, d_zip, d_name FROM district"
                    + " WHERE d_w_id = ? AND d_id = ?", w, d)) {
                dName = one(rs).getString(6);
            }
            if (byName) {
                cu = customerByName(cw, cd, last);
            }
            String credit;
            try (ResultSet rs = query("SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip,"
                    + " c_phone, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_since"
                    + " FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?", cw, cd, cu)) {
                credit = one(rs).getString(10);
            }
            updateOne("UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?,"
                    + " c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
                    amount, amount, cw, cd, cu);
            if ("BC".equals(credit)) {
                String data;
                try (ResultSet rs = query("SELECT c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
                        cw, cd, cu)) {
                    data = one(rs).getString(1);
                }
                data = cu + " " + cd + " " + cw + " " + d + " " + w + " " + amount + " | " + data;
                if (data.length() > 500) {
                    data = data.substring(0, 500);
                }
                updateOne("UPDATE customer SET c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?", data, cw, cd, cu);
            }
            String hData = (wName.length() > 10 ? wName.substring(0, 10) : wName) + "    "
                    + (dName.length() > 10 ? dName.substring(0, 10) : dName);
            updateOne("INSERT INTO history (h_c_d_id, h_c_w_id, h_c_id, h_d_id, h_w_id, h_date, h_amount, h_data)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", cd, cw, cu, d, w, now(), amount, hData);
        }

        /** TPC-C 2.6: Order-Status (read-only), 60 % by last name. */
        private void orderStatus(SplittableRandom r) throws SQLException {
            int d = uniform(r, 1, DISTRICTS);
            boolean byName = uniform(r, 1, 100) <= 60;
            int cu = byName ? customerByName(w, d, lastName(nurand(r, 7, 0, LAST_NAMES - 1))) : customerId(r);
            try (ResultSet rs = query("SELECT c_first, c_middle, c_last, c_balance FROM customer WHERE c_w_id = ?"
                    + " AND c_d_id = ? AND c_id = ?", w, d, cu)) {
                one(rs);
            }
            int orderId;
            try (ResultSet rs = query("SELECT o_id, o_carrier_id, o_entry_d FROM oorder WHERE o_w_id = ? AND o_d_id = ?"
                    + " AND o_c_id = ? ORDER BY o_id DESC LIMIT 1", w, d, cu)) {
                orderId = one(rs).getInt(1);
            }
            int lines = 0;
            try (ResultSet rs = query("SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line"
                    + " WHERE ol_o_id = ? AND ol_d_id = ? AND ol_w_id = ?", orderId, d, w)) {
                while (rs.next()) {
                    lines++;
                }
            }
            if (lines < 5) {
                throw new IllegalStateException("order " + w + "/" + d + "/" + orderId + " has " + lines + " lines");
            }
        }

        /**
         * TPC-C 2.7: Delivery of the oldest new order of each district, as BenchBase runs it: when
         * the new order read is gone by the time it is deleted (a concurrent Delivery took it, which
         * READ COMMITTED allows), the transaction rolls itself back.
         */
        private void delivery(SplittableRandom r) throws SQLException, UserAbort {
            int carrier = uniform(r, 1, 10);
            for (int d = 1; d <= DISTRICTS; d++) {
                int orderId;
                try (ResultSet rs = query("SELECT no_o_id FROM new_order WHERE no_d_id = ? AND no_w_id = ?"
                        + " ORDER BY no_o_id ASC LIMIT 1", d, w)) {
                    if (!rs.next()) {
                        continue;
                    }
                    orderId = rs.getInt(1);
                }
                if (update("DELETE FROM new_order WHERE no_o_id = ? AND no_d_id = ? AND no_w_id = ?", orderId, d, w) != 1) {
                    throw new UserAbort("Delivery: new order " + w + "/" + d + "/" + orderId + " already delivered");
                }
                int customer;
                try (ResultSet rs = query("SELECT o_c_id FROM oorder WHERE o_id = ? AND o_d_id = ? AND o_w_id = ?",
                        orderId, d, w)) {
                    customer = one(rs).getInt(1);
                }
                updateOne("UPDATE oorder SET o_carrier_id = ? WHERE o_id = ? AND o_d_id = ? AND o_w_id = ?",
                        carrier, orderId, d, w);
                if (update("UPDATE order_line SET ol_delivery_d = ? WHERE ol_o_id = ? AND ol_d_id = ? AND ol_w_id = ?",
                        now(), orderId, d, w) == 0) {
                    throw new IllegalStateException("no order lines for order " + w + "/" + d + "/" + orderId);
                }
                BigDecimal total;
                try (ResultSet rs = query("SELECT SUM(ol_amount) AS ol_total FROM order_line WHERE ol_o_id = ?"
                        + " AND ol_d_id = ? AND ol_w_id = ?", orderId, d, w)) {
                    total = money(one(rs), 1);
                }
                updateOne("UPDATE customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1"
                        + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?", total, w, d, customer);
            }
        }

        /** TPC-C 2.8: Stock-Level (read-only) over the district's last 20 orders. */
        private void stockLevel(SplittableRandom r) throws SQLException {
            int d = uniform(r, 1, DISTRICTS);
            int threshold = uniform(r, 10, 20);
            int next;
            try (ResultSet rs = query("SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?", w, d)) {
                next = one(rs).getInt(1);
            }
            try (ResultSet rs = query("SELECT COUNT(DISTINCT s_i_id) AS stock_count FROM order_line, stock"
                    + " WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ? AND s_w_id = ?"
                    + " AND s_i_id = ol_i_id AND s_quantity < ?", w, d, next, next - 20, w, threshold)) {
                one(rs);
            }
        }
    }

    private static ResultSet one(ResultSet rs) throws SQLException {
        if (!rs.next()) {
            throw new IllegalStateException("no row");
        }
        return rs;
    }

    /** A money column as an exact DECIMAL with scale 2 (SQLite keeps REALs; 0 for NULL). */
    private static BigDecimal money(ResultSet rs, int column) throws SQLException {
        BigDecimal v = rs.getBigDecimal(column);
        return v == null ? new BigDecimal("0.00") : v.setScale(2, RoundingMode.HALF_UP);
    }

    // ---------------------------------------------------------------- consistency (TPC-C 3.3.2)

    private record Key(int w, int d, int id) {
    }

    /**
     * The consistency conditions 1 to 10 and 12 of TPC-C 3.3.2 on the database {@code c} is
     * connected to (read in full: the tables are small); returns those violated (the first 20).
     */
    List<String> violations(Connection c) throws SQLException {
        List<String> bad = new ArrayList<>();
        Map<Integer, BigDecimal> wYtd = new HashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT w_id, w_ytd FROM warehouse")) {
            while (rs.next()) {
                wYtd.put(rs.getInt(1), money(rs, 2));
            }
        }
        Map<Key, BigDecimal> dYtd = new HashMap<>();
        Map<Key, Integer> dNext = new HashMap<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT d_w_id, d_id, d_ytd, d_next_o_id FROM district")) {
            while (rs.next()) {
                Key k = new Key(rs.getInt(1), rs.getInt(2), 0);
                dYtd.put(k, money(rs, 3));
                dNext.put(k, rs.getInt(4));
            }
        }
        // orders: district -> (o_id -> [c_id, carrier null?, ol_cnt])
        Map<Key, int[]> orders = new HashMap<>();
        Map<Key, Integer> maxOrder = new HashMap<>();
        Map<Key, Integer> undelivered = new HashMap<>();
        Map<Key, Long> olCntSum = new HashMap<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT o_w_id, o_d_id, o_id, o_c_id, o_carrier_id, o_ol_cnt FROM oorder")) {
            while (rs.next()) {
                Key district = new Key(rs.getInt(1), rs.getInt(2), 0);
                int id = rs.getInt(3);
                rs.getInt(5);
                boolean open = rs.wasNull();
                orders.put(new Key(district.w, district.d, id), new int[] {rs.getInt(4), open ? 1 : 0, rs.getInt(6)});
                maxOrder.merge(district, id, Math::max);
                undelivered.merge(district, open ? 1 : 0, Integer::sum);
                olCntSum.merge(district, (long) rs.getInt(6), Long::sum);
            }
        }
        Map<Key, Integer> maxNew = new HashMap<>();
        Map<Key, Integer> minNew = new HashMap<>();
        Map<Key, Integer> countNew = new HashMap<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT no_w_id, no_d_id, no_o_id FROM new_order")) {
            while (rs.next()) {
                Key district = new Key(rs.getInt(1), rs.getInt(2), 0);
                int id = rs.getInt(3);
                maxNew.merge(district, id, Math::max);
                minNew.merge(district, id, Math::min);
                countNew.merge(district, 1, Integer::sum);
                int[] o = orders.get(new Key(district.w, district.d, id));
                if (o == null || o[1] != 1) {
                    bad.add("5: new order " + district + "/" + id + " has " + (o == null ? "no order" : "a carrier"));
                }
            }
        }
        Map<Key, Long> lineCount = new HashMap<>();
        Map<Key, Integer> linesPerOrder = new HashMap<>();
        Map<Key, BigDecimal> deliveredPerCustomer = new HashMap<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT ol_w_id, ol_d_id, ol_o_id, ol_delivery_d, ol_amount FROM order_line")) {
            while (rs.next()) {
                Key district = new Key(rs.getInt(1), rs.getInt(2), 0);
                Key order = new Key(district.w, district.d, rs.getInt(3));
                boolean delivered = rs.getTimestamp(4) != null;
                lineCount.merge(district, 1L, Long::sum);
                linesPerOrder.merge(order, 1, Integer::sum);
                int[] o = orders.get(order);
                if (o == null) {
                    bad.add("6: order line of missing order " + order);
                    continue;
                }
                if (delivered == (o[1] == 1)) {
                    bad.add("7: order line of order " + order + (delivered ? " delivered, order open" : " undelivered, order delivered"));
                }
                if (delivered) {
                    deliveredPerCustomer.merge(new Key(district.w, district.d, o[0]), money(rs, 5), BigDecimal::add);
                }
            }
        }
        for (Map.Entry<Key, int[]> o : orders.entrySet()) {
            int lines = linesPerOrder.getOrDefault(o.getKey(), 0);
            if (lines != o.getValue()[2]) {
                bad.add("6: order " + o.getKey() + " has O_OL_CNT " + o.getValue()[2] + " but " + lines + " lines");
            }
        }
        Map<Integer, BigDecimal> historyPerWarehouse = new HashMap<>();
        Map<Key, BigDecimal> historyPerDistrict = new HashMap<>();
        Map<Key, BigDecimal> historyPerCustomer = new HashMap<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT h_w_id, h_d_id, h_c_w_id, h_c_d_id, h_c_id, h_amount FROM history")) {
            while (rs.next()) {
                BigDecimal amount = money(rs, 6);
                historyPerWarehouse.merge(rs.getInt(1), amount, BigDecimal::add);
                historyPerDistrict.merge(new Key(rs.getInt(1), rs.getInt(2), 0), amount, BigDecimal::add);
                historyPerCustomer.merge(new Key(rs.getInt(3), rs.getInt(4), rs.getInt(5)), amount, BigDecimal::add);
            }
        }
        BigDecimal zero = new BigDecimal("0.00");
        for (Map.Entry<Integer, BigDecimal> w : wYtd.entrySet()) {
            BigDecimal districts = zero;
            for (Map.Entry<Key, BigDecimal> d : dYtd.entrySet()) {
                if (d.getKey().w == w.getKey()) {
                    districts = districts.add(d.getValue());
                }
            }
            if (w.getValue().compareTo(districts) != 0) {
                bad.add("1: W_YTD " + w.getValue() + " of warehouse " + w.getKey() + " != sum(D_YTD) " + districts);
            }
            BigDecimal history = historyPerWarehouse.getOrDefault(w.getKey(), zero);
            if (w.getValue().compareTo(history) != 0) {
                bad.add("8: W_YTD " + w.getValue() + " of warehouse " + w.getKey() + " != sum(H_AMOUNT) " + history);
            }
        }
        for (Key d : dNext.keySet()) {
            int next = dNext.get(d);
            if (next - 1 != maxOrder.getOrDefault(d, 0)) {
                bad.add("2: district " + d + ": D_NEXT_O_ID - 1 = " + (next - 1) + ", max(O_ID) = " + maxOrder.get(d));
            }
            if (maxNew.containsKey(d)) {
                if (next - 1 != maxNew.get(d)) {
                    bad.add("2: district " + d + ": D_NEXT_O_ID - 1 = " + (next - 1) + ", max(NO_O_ID) = " + maxNew.get(d));
                }
                if (maxNew.get(d) - minNew.get(d) + 1 != countNew.get(d)) {
                    bad.add("3: district " + d + ": NO_O_ID from " + minNew.get(d) + " to " + maxNew.get(d) + ", "
                            + countNew.get(d) + " rows");
                }
            }
            if (!Objects.equals(olCntSum.getOrDefault(d, 0L), lineCount.getOrDefault(d, 0L))) {
                bad.add("4: district " + d + ": sum(O_OL_CNT) " + olCntSum.get(d) + " != order lines " + lineCount.get(d));
            }
            if (undelivered.getOrDefault(d, 0).intValue() != countNew.getOrDefault(d, 0).intValue()) {
                bad.add("5: district " + d + ": " + undelivered.get(d) + " orders without carrier, "
                        + countNew.get(d) + " new orders");
            }
            BigDecimal history = historyPerDistrict.getOrDefault(d, zero);
            if (dYtd.get(d).compareTo(history) != 0) {
                bad.add("9: D_YTD " + dYtd.get(d) + " of district " + d + " != sum(H_AMOUNT) " + history);
            }
        }
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT c_w_id, c_d_id, c_id, c_balance, c_ytd_payment FROM customer")) {
            while (rs.next()) {
                Key k = new Key(rs.getInt(1), rs.getInt(2), rs.getInt(3));
                BigDecimal balance = money(rs, 4);
                BigDecimal ytd = money(rs, 5);
                BigDecimal delivered = deliveredPerCustomer.getOrDefault(k, zero);
                BigDecimal paid = historyPerCustomer.getOrDefault(k, zero);
                if (balance.compareTo(delivered.subtract(paid)) != 0) {
                    bad.add("10: customer " + k + ": C_BALANCE " + balance + " != delivered " + delivered + " - paid " + paid);
                }
                if (balance.add(ytd).compareTo(delivered) != 0) {
                    bad.add("12: customer " + k + ": C_BALANCE + C_YTD_PAYMENT " + balance.add(ytd) + " != delivered " + delivered);
                }
            }
        }
        return bad.size() > 20 ? List.copyOf(bad.subList(0, 20)) : bad;
    }
}
