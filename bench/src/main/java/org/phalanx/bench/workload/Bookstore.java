package org.phalanx.bench.workload;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.phalanx.testkit.jdbc.CostModel;

/**
 * A TPC-W-like online bookstore: the 14 web interactions of TPC-W, each one request of the
 * closed loop (one to seven SQL statements), in the three TPC-W mixes: browsing (95% read-only
 * interactions), shopping (80%) and ordering (50%). The schema is TPC-W's, trimmed to the columns
 * the interactions use; the dataset is small (scale 1,000 items loads in well under a second).
 *
 * <p>Not TPC-W: no web tier, no images, no think time, no emulated-browser sessions beyond "a
 * client has one customer and one cart"; a client runs the interactions in a {@link MixSequence}
 * rather than at random; ids of new rows are chosen by the clients.
 */
public final class Bookstore implements Workload {

    /** The 14 TPC-W interactions (request classes). */
    public static final List<String> INTERACTIONS = List.of("home", "new-products", "best-sellers",
            "product-detail", "search-request", "search-results", "shopping-cart", "customer-registration",
            "buy-request", "buy-confirm", "order-inquiry", "order-display", "admin-request", "admin-confirm");

    private static final int HOME = 0, NEW_PRODUCTS = 1, BEST_SELLERS = 2, PRODUCT_DETAIL = 3,
            SEARCH_REQUEST = 4, SEARCH_RESULTS = 5, SHOPPING_CART = 6, CUSTOMER_REGISTRATION = 7,
            BUY_REQUEST = 8, BUY_CONFIRM = 9, ORDER_INQUIRY = 10, ORDER_DISPLAY = 11, ADMIN_REQUEST = 12,
            ADMIN_CONFIRM = 13;

    /** The TPC-W mixes: interaction frequencies in hundredths of a percent (TPC-W 1.8, clause 5.2.4). */
    public enum Mix {
        BROWSING("browsing", 2900, 1100, 1100, 2100, 1200, 1100, 200, 82, 75, 69, 30, 25, 10, 9),
        SHOPPING("shopping", 1600, 500, 500, 1700, 2000, 1700, 1160, 300, 260, 120, 75, 66, 10, 9),
        ORDERING("ordering", 912, 46, 46, 1235, 1453, 1308, 1353, 1286, 1273, 1018, 25, 22, 12, 11);

        public final String label;
        final int[] weights;
        final int[] cumulative = new int[14];

        Mix(String label, int... weights) {
            this.label = label;
            this.weights = weights;
            int sum = 0;
            for (int i = 0; i < weights.length; i++) {
                sum += weights[i];
                cumulative[i] = sum;
            }
            if (sum != 10_000) {
                throw new AssertionError(label + " mix sums to " + sum);
            }
        }

        /** Share of interactions that only read (the first six). */
        public double readOnlyShare() {
            return cumulative[SEARCH_RESULTS] / 10_000.0;
        }

        /** Frequency of one interaction, 0..1. */
        public double frequency(int interaction) {
            return (cumulative[interaction] - (interaction == 0 ? 0 : cumulative[interaction - 1])) / 10_000.0;
        }
    }

    /**
     * How Best Sellers computes its answer. {@link #QUERY}: one read (the 3,333 most recent orders
     * picked by {@code ol_o_id > ?}). {@link #WORK_TABLE}: as TPC-W implementations without
     * subqueries did (the one the C-JDBC paper measured), through temporary work: the client's
     * own work table ({@code tmp_bs_<k>}, created once per client) is emptied and filled with the
     * recent-orders window, then joined with the order lines: two writes and a read, so the fill
     * runs on every backend holding the work table. The fill stores the window's lower bound (one
     * row: the real engines under the emulated backends run inside the controller process, and
     * 3,333 real inserts per backend would be their CPU, not the emulated servers'); its cost
     * model charges it as TPC-W's fill of 3,333 order ids.
     */
    public enum BestSellers { QUERY, WORK_TABLE }

    /** Dataset size and the id counters clients draw new rows from (shared by the mixes over one dataset). */
    public static final class Dataset {
        final int items;
        final int authors;
        final int customers;
        final int orders;
        final AtomicInteger nextCustomer;
        final AtomicInteger nextOrder;
        final AtomicInteger nextCart = new AtomicInteger();
        /** Per virtual database (URL): the numbers of the Best Sellers work tables no client holds now. */
        private final Map<String, java.util.Deque<Integer>> freeWorkTables = new HashMap<>();
        private final Map<String, Integer> workTables = new HashMap<>();
        private final java.util.Set<String> createdWorkTables = new java.util.HashSet<>();

        /** A work table for a client of this database: one handed back by an earlier client, or a new number. */
        synchronized int takeWorkTable(String url) {
            java.util.Deque<Integer> free = freeWorkTables.computeIfAbsent(url, u -> new java.util.ArrayDeque<>());
            if (!free.isEmpty()) {
                return free.pop();
            }
            int n = workTables.merge(url, 1, Integer::sum);
            return n;
        }

        /**
         * True the first time a work table is used in a database: it must be created then, once
         * (a CREATE TABLE IF NOT EXISTS on every use would, under RAIDb-2, be placed again by the
         * round-robin rule and copy the table onto more backends).
         */
        synchronized boolean firstUse(String url, int table) {
            return createdWorkTables.add(url + "#" + table);
        }

        synchronized void giveBackWorkTable(String url, int table) {
            freeWorkTables.computeIfAbsent(url, u -> new java.util.ArrayDeque<>()).push(table);
        }

        public Dataset(int items, int customers) {
            this.items = items;
            this.authors = Math.max(1, items / 4);
            this.customers = customers;
            this.orders = customers * 9 / 10;
            this.nextCustomer = new AtomicInteger(customers);
            this.nextOrder = new AtomicInteger(orders);
        }

        @Override
        public String toString() {
            return items + " items, " + authors + " authors, " + customers + " customers, " + orders
                    + " orders (about " + 3 * orders + " order lines)";
        }
    }

    static final String[] SUBJECTS = {"ARTS", "BIOGRAPHIES", "BUSINESS", "CHILDREN", "COMPUTERS", "COOKING",
        "HEALTH", "HISTORY", "HOME", "HUMOR", "LITERATURE", "MYSTERY", "NON-FICTION", "PARENTING", "POLITICS",
        "REFERENCE", "RELIGION", "ROMANCE", "SELF-HELP", "SCIENCE-NATURE", "SCIENCE-FICTION", "SPORTS", "YOUTH",
        "TRAVEL"};
    static final String[] WORDS = {"river", "night", "garden", "silent", "empire", "stone", "winter", "shadow",
        "paper", "ocean", "glass", "forest", "iron", "summer", "secret", "golden", "broken", "city", "letter",
        "storm", "crown", "mirror", "distant", "fire", "voyage", "quiet", "wild", "music", "island", "memory"};
    static final String[] SYLLABLES = {"ba", "ro", "ki", "ten", "mar", "lo", "vi", "son", "del", "an", "gre", "to"};

    // ---------------------------------------------------------------- SQL
    static final String CUSTOMER_NAME = "SELECT c_fname, c_lname FROM customer WHERE c_id = ?";
    /** TPC-W's getRelated, as five key joins (one OR-join would scan the item table on some engines). */
    static final String RELATED = "SELECT j.i_id, j.i_title FROM item i JOIN item j ON j.i_id = i.i_related1 WHERE i.i_id = ?"
            + " UNION ALL SELECT j.i_id, j.i_title FROM item i JOIN item j ON j.i_id = i.i_related2 WHERE i.i_id = ?"
            + " UNION ALL SELECT j.i_id, j.i_title FROM item i JOIN item j ON j.i_id = i.i_related3 WHERE i.i_id = ?"
            + " UNION ALL SELECT j.i_id, j.i_title FROM item i JOIN item j ON j.i_id = i.i_related4 WHERE i.i_id = ?"
            + " UNION ALL SELECT j.i_id, j.i_title FROM item i JOIN item j ON j.i_id = i.i_related5 WHERE i.i_id = ?";
    static final String NEW_PRODUCTS_SQL = "SELECT i_id, i_title, a_fname, a_lname FROM item JOIN author ON i_a_id = a_id"
            + " WHERE i_subject = ? ORDER BY i_pub_date DESC, i_title LIMIT 50";
    static final String BEST_SELLERS_SQL = "SELECT i_id, i_title, a_fname, a_lname, SUM(ol_qty) AS sold"
            + " FROM order_line JOIN item ON ol_i_id = i_id JOIN author ON i_a_id = a_id"
            + " WHERE ol_o_id > ? AND i_subject = ? GROUP BY i_id, i_title, a_fname, a_lname ORDER BY sold DESC LIMIT 50";
    /** Best Sellers over a work table (%s is the table's name). */
    static final String WORK_TABLE_CREATE = "CREATE TABLE %s (tmp_after_o_id INTEGER NOT NULL)";
    static final String WORK_TABLE_CLEAR = "DELETE FROM %s";
    static final String WORK_TABLE_FILL = "INSERT INTO %s (tmp_after_o_id) SELECT MAX(o_id) - 3333"
            + " FROM orders";
    static final String WORK_TABLE_BEST_SELLERS = "SELECT i_id, i_title, a_fname, a_lname, SUM(ol_qty) AS sold"
            + " FROM %s JOIN order_line ON ol_o_id > tmp_after_o_id JOIN item ON ol_i_id = i_id JOIN author ON i_a_id = a_id"
            + " WHERE i_subject = ? GROUP BY i_id, i_title, a_fname, a_lname ORDER BY sold DESC LIMIT 50";
    /** Work tables' names start with this (for placement rules). */
    public static final String WORK_TABLE_PREFIX = "tmp_bs_";
    static final String PRODUCT = "SELECT i_title, a_fname, a_lname, i_pub_date, i_desc, i_cost, i_srp, i_stock"
            + " FROM item JOIN author ON i_a_id = a_id WHERE i_id = ?";
    static final String SEARCH_BY_AUTHOR = "SELECT i_id, i_title, a_fname, a_lname FROM item JOIN author ON i_a_id = a_id"
            + " WHERE a_lname LIKE ? ORDER BY i_title LIMIT 50";
    static final String SEARCH_BY_TITLE = "SELECT i_id, i_title, a_fname, a_lname FROM item JOIN author ON i_a_id = a_id"
            + " WHERE i_title LIKE ? ORDER BY i_title LIMIT 50";
    static final String SEARCH_BY_SUBJECT = "SELECT i_id, i_title, a_fname, a_lname FROM item JOIN author ON i_a_id = a_id"
            + " WHERE i_subject = ? ORDER BY i_title LIMIT 50";
    static final String NEW_CART = "INSERT INTO shopping_cart (sc_id, sc_time) VALUES (?, ?)";
    static final String CART_ADD = "UPDATE shopping_cart_line SET scl_qty = scl_qty + 1 WHERE scl_sc_id = ? AND scl_i_id = ?";
    static final String CART_NEW_LINE = "INSERT INTO shopping_cart_line (scl_sc_id, scl_i_id, scl_qty) VALUES (?, ?, 1)";
    static final String CART = "SELECT scl_i_id, scl_qty, i_title, i_cost FROM shopping_cart_line JOIN item ON scl_i_id = i_id"
            + " WHERE scl_sc_id = ?";
    static final String CUSTOMER_BY_NAME = "SELECT c_id, c_passwd, c_fname, c_lname, c_discount, addr_street, addr_city"
            + " FROM customer JOIN address ON c_addr_id = addr_id WHERE c_uname = ?";
    static final String REFRESH_SESSION = "UPDATE customer SET c_login = ?, c_expiration = ? WHERE c_id = ?";
    static final String NEW_ADDRESS = "INSERT INTO address (addr_id, addr_street, addr_city, addr_zip, addr_co_id)"
            + " VALUES (?, ?, ?, ?, ?)";
    static final String NEW_CUSTOMER = "INSERT INTO customer (c_id, c_uname, c_passwd, c_fname, c_lname, c_discount,"
            + " c_balance, c_login, c_expiration, c_addr_id) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)";
    static final String NEW_ORDER = "INSERT INTO orders (o_id, o_c_id, o_date, o_sub_total, o_total, o_status,"
            + " o_ship_addr_id) VALUES (?, ?, ?, ?, ?, 'PENDING', ?)";
    static final String NEW_ORDER_LINE = "INSERT INTO order_line (ol_o_id, ol_id, ol_i_id, ol_qty, ol_discount)"
            + " VALUES (?, ?, ?, ?, ?)";
    static final String TAKE_STOCK = "UPDATE item SET i_stock = CASE WHEN i_stock >= ? + 10 THEN i_stock - ?"
            + " ELSE i_stock - ? + 21 END WHERE i_id = ?";
    static final String NEW_CC_XACT = "INSERT INTO cc_xacts (cx_o_id, cx_type, cx_num, cx_amount, cx_date)"
            + " VALUES (?, ?, ?, ?, ?)";
    static final String CLEAR_CART = "DELETE FROM shopping_cart_line WHERE scl_sc_id = ?";
    static final String LAST_ORDER = "SELECT o_id, o_date, o_sub_total, o_total, o_status FROM orders WHERE o_c_id = ?"
            + " ORDER BY o_id DESC LIMIT 1";
    static final String ORDER_LINES = "SELECT ol_i_id, ol_qty, ol_discount, i_title, i_cost FROM order_line"
            + " JOIN item ON ol_i_id = i_id WHERE ol_o_id = ?";
    static final String ADMIN_UPDATE = "UPDATE item SET i_cost = ?, i_pub_date = ? WHERE i_id = ?";
    static final String ADMIN_RELATED = "SELECT ol_i_id FROM order_line WHERE ol_o_id > ? AND ol_o_id IN"
            + " (SELECT ol_o_id FROM order_line WHERE ol_i_id = ?) AND ol_i_id <> ?"
            + " GROUP BY ol_i_id ORDER BY SUM(ol_qty) DESC LIMIT 5";
    static final String ADMIN_SET_RELATED = "UPDATE item SET i_related1 = ?, i_related2 = ?, i_related3 = ?,"
            + " i_related4 = ?, i_related5 = ? WHERE i_id = ?";

    /** Orders the best-seller and admin queries look back over (TPC-W: the last 3,333). */
    static final int RECENT_ORDERS = 3333;

    private final Mix mix;
    private final Dataset data;
    private final BestSellers bestSellers;
    private final boolean interactionTransactions;
    private final AtomicLong refusals = new AtomicLong();

    public Bookstore(Mix mix, Dataset data) {
        this(mix, data, BestSellers.QUERY);
    }

    public Bookstore(Mix mix, Dataset data, BestSellers bestSellers) {
        this(mix, data, bestSellers, false);
    }

    private Bookstore(Mix mix, Dataset data, BestSellers bestSellers, boolean interactionTransactions) {
        this.mix = mix;
        this.data = data;
        this.bestSellers = bestSellers;
        this.interactionTransactions = interactionTransactions;
    }

    /**
     * The same workload with every interaction one transaction (as TPC-W implementations run
     * them, and as the conflict-aware scheduling paper measured them), at the connection's
     * isolation level, declared read-only ({@code setReadOnly(true)}) when it writes nothing; an
     * interaction refused with 40001 is rolled back and run again ({@link #refusals} counts those).
     */
    public Bookstore inTransactions() {
        return new Bookstore(mix, data, bestSellers, true);
    }

    /** Interactions refused with 40001 and run again, over every client of this workload so far. */
    public long refusals() {
        return refusals.get();
    }

    public Mix mix() {
        return mix;
    }

    @Override
    public String name() {
        return "bookstore " + mix.label;
    }

    @Override
    public List<String> requestClasses() {
        return INTERACTIONS;
    }

    /**
     * The cost model of the emulated backends for this workload (service time per statement
     * class, the same for every mix): heavy analytical reads (best sellers, the admin's related
     * items, new products, searches) cost far more than key lookups, and writes by key less still.
     */
    public static CostModel costModel() {
        return everythingButBestSellers(CostModel.builder()
                .add("best-sellers", Duration.ofMillis(200), "GROUP\\s+BY\\s+i_id"));
    }

    /**
     * The cost model for {@link BestSellers#WORK_TABLE}: the same, except that the 200 ms of Best
     * Sellers are split by the rows each step touches in TPC-W: filling the work table (reading
     * 3,333 order ids by key and writing them, 3,333 rows) costs 30 ms, the join and grouping that
     * follow (about 10,000 order lines and as many item lookups) 170 ms; emptying the work table
     * is a write like the others.
     */
    public static CostModel workTableCostModel() {
        return everythingButBestSellers(CostModel.builder()
                .add("best-sellers-fill", Duration.ofMillis(30), "^\\s*INSERT\\s+INTO\\s+" + WORK_TABLE_PREFIX)
                .add("best-sellers", Duration.ofMillis(170), "GROUP\\s+BY\\s+i_id"));
    }

    /** The classes after Best Sellers' (the first matching pattern wins, so they come last). */
    private static CostModel everythingButBestSellers(CostModel.Builder b) {
        return b.add("admin-related", Duration.ofMillis(200), "GROUP\\s+BY\\s+ol_i_id")
                .add("new-products", Duration.ofMillis(100), "ORDER\\s+BY\\s+i_pub_date")
                .add("search", Duration.ofMillis(80), "ORDER\\s+BY\\s+i_title")
                .add("write", Duration.ofMillis(1).dividedBy(10), "^\\s*(INSERT|UPDATE|DELETE)")
                .add("commit", Duration.ofMillis(4).dividedBy(10), CostModel.COMMIT)
                .add("rollback", Duration.ZERO, CostModel.ROLLBACK)
                .add("light-read", Duration.ofMillis(2), ".")
                .build();
    }

    // ---------------------------------------------------------------- dataset

    @Override
    public void load(Connection c) throws SQLException {
        Loader.ddl(c,
                "DROP TABLE IF EXISTS shopping_cart_line", "DROP TABLE IF EXISTS shopping_cart",
                "DROP TABLE IF EXISTS cc_xacts", "DROP TABLE IF EXISTS order_line", "DROP TABLE IF EXISTS orders",
                "DROP TABLE IF EXISTS customer", "DROP TABLE IF EXISTS address", "DROP TABLE IF EXISTS item",
                "DROP TABLE IF EXISTS author",
                "CREATE TABLE author (a_id INTEGER PRIMARY KEY, a_fname VARCHAR(20) NOT NULL, a_lname VARCHAR(20) NOT NULL)",
                "CREATE TABLE item (i_id INTEGER PRIMARY KEY, i_title VARCHAR(60) NOT NULL, i_a_id INTEGER NOT NULL,"
                        + " i_pub_date BIGINT NOT NULL, i_subject VARCHAR(20) NOT NULL, i_desc VARCHAR(200),"
                        + " i_related1 INTEGER, i_related2 INTEGER, i_related3 INTEGER, i_related4 INTEGER,"
                        + " i_related5 INTEGER, i_cost DOUBLE PRECISION NOT NULL, i_srp DOUBLE PRECISION NOT NULL,"
                        + " i_stock INTEGER NOT NULL)",
                "CREATE TABLE address (addr_id INTEGER PRIMARY KEY, addr_street VARCHAR(40) NOT NULL,"
                        + " addr_city VARCHAR(30) NOT NULL, addr_zip VARCHAR(10) NOT NULL, addr_co_id INTEGER NOT NULL)",
                "CREATE TABLE customer (c_id INTEGER PRIMARY KEY, c_uname VARCHAR(20) NOT NULL, c_passwd VARCHAR(20) NOT NULL,"
                        + " c_fname VARCHAR(20) NOT NULL, c_lname VARCHAR(20) NOT NULL, c_discount DOUBLE PRECISION NOT NULL,"
                        + " c_balance DOUBLE PRECISION NOT NULL, c_login BIGINT, c_expiration BIGINT, c_addr_id INTEGER NOT NULL)",
                "CREATE TABLE orders (o_id INTEGER PRIMARY KEY, o_c_id INTEGER NOT NULL, o_date BIGINT NOT NULL,"
                        + " o_sub_total DOUBLE PRECISION NOT NULL, o_total DOUBLE PRECISION NOT NULL,"
                        + " o_status VARCHAR(16) NOT NULL, o_ship_addr_id INTEGER NOT NULL)",
                "CREATE TABLE order_line (ol_o_id INTEGER NOT NULL, ol_id INTEGER NOT NULL, ol_i_id INTEGER NOT NULL,"
                        + " ol_qty INTEGER NOT NULL, ol_discount DOUBLE PRECISION NOT NULL, PRIMARY KEY (ol_o_id, ol_id))",
                "CREATE TABLE cc_xacts (cx_o_id INTEGER PRIMARY KEY, cx_type VARCHAR(10) NOT NULL, cx_num VARCHAR(20) NOT NULL,"
                        + " cx_amount DOUBLE PRECISION NOT NULL, cx_date BIGINT NOT NULL)",
                "CREATE TABLE shopping_cart (sc_id INTEGER PRIMARY KEY, sc_time BIGINT NOT NULL)",
                "CREATE TABLE shopping_cart_line (scl_sc_id INTEGER NOT NULL, scl_i_id INTEGER NOT NULL,"
                        + " scl_qty INTEGER NOT NULL, PRIMARY KEY (scl_sc_id, scl_i_id))",
                "CREATE INDEX item_subject ON item (i_subject)",
                "CREATE INDEX author_lname ON author (a_lname)",
                "CREATE UNIQUE INDEX customer_uname ON customer (c_uname)",
                "CREATE INDEX orders_customer ON orders (o_c_id)",
                "CREATE INDEX order_line_item ON order_line (ol_i_id)");
        SplittableRandom r = new SplittableRandom(42);
        long now = System.currentTimeMillis();
        Loader.insert(c, "INSERT INTO author (a_id, a_fname, a_lname) VALUES (?, ?, ?)", data.authors, (ps, i) -> {
            ps.setInt(1, i);
            ps.setString(2, name(r));
            ps.setString(3, name(r));
        });
        Loader.insert(c, "INSERT INTO item (i_id, i_title, i_a_id, i_pub_date, i_subject, i_desc, i_related1, i_related2,"
                + " i_related3, i_related4, i_related5, i_cost, i_srp, i_stock)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", data.items, (ps, i) -> {
                    ps.setInt(1, i);
                    ps.setString(2, title(r));
                    ps.setInt(3, 1 + r.nextInt(data.authors));
                    ps.setLong(4, now - r.nextLong(10L * 365 * 86_400_000L));
                    ps.setString(5, SUBJECTS[r.nextInt(SUBJECTS.length)]);
                    ps.setString(6, title(r) + " " + title(r));
                    for (int k = 7; k <= 11; k++) {
                        ps.setInt(k, 1 + r.nextInt(data.items));
                    }
                    double cost = 1 + r.nextInt(9999) / 100.0;
                    ps.setDouble(12, cost);
                    ps.setDouble(13, cost * 1.2);
                    ps.setInt(14, 10 + r.nextInt(21));
                });
        Loader.insert(c, NEW_ADDRESS, data.customers, (ps, i) -> bindAddress(ps, i, r));
        Loader.insert(c, NEW_CUSTOMER, data.customers, (ps, i) -> bindCustomer(ps, i, r, now));
        int[] lines = new int[data.orders + 1];
        Loader.insert(c, NEW_ORDER, data.orders, (ps, i) -> {
            lines[i] = 1 + r.nextInt(5);
            ps.setInt(1, i);
            ps.setInt(2, 1 + r.nextInt(data.customers));
            ps.setLong(3, now - r.nextLong(60L * 86_400_000L));
            double total = 10 + r.nextInt(50_000) / 100.0;
            ps.setDouble(4, total);
            ps.setDouble(5, total * 1.0825);
            ps.setInt(6, 1 + r.nextInt(data.customers));
        });
        List<int[]> orderLines = new ArrayList<>();
        for (int o = 1; o <= data.orders; o++) {
            for (int l = 1; l <= lines[o]; l++) {
                orderLines.add(new int[] {o, l});
            }
        }
        Loader.insert(c, NEW_ORDER_LINE, orderLines.size(), (ps, i) -> {
            int[] ol = orderLines.get(i - 1);
            ps.setInt(1, ol[0]);
            ps.setInt(2, ol[1]);
            ps.setInt(3, 1 + r.nextInt(data.items));
            ps.setInt(4, 1 + r.nextInt(5));
            ps.setDouble(5, r.nextInt(30) / 100.0);
        });
        Loader.insert(c, NEW_CC_XACT, data.orders, (ps, i) -> {
            ps.setInt(1, i);
            ps.setString(2, "VISA");
            ps.setString(3, Long.toString(4_000_000_000_000_000L + r.nextLong(999_999_999_999L)));
            ps.setDouble(4, 10 + r.nextInt(50_000) / 100.0);
            ps.setLong(5, now);
        });
    }

    private static void bindAddress(PreparedStatement ps, int id, SplittableRandom r) throws SQLException {
        ps.setInt(1, id);
        ps.setString(2, (1 + r.nextInt(999)) + " " + name(r) + " street");
        ps.setString(3, name(r));
        ps.setString(4, Integer.toString(10_000 + r.nextInt(89_999)));
        ps.setInt(5, 1 + r.nextInt(92));
    }

    private static void bindCustomer(PreparedStatement ps, int id, SplittableRandom r, long now) throws SQLException {
        ps.setInt(1, id);
        ps.setString(2, "user" + id);
        ps.setString(3, "pw" + id);
        ps.setString(4, name(r));
        ps.setString(5, name(r));
        ps.setDouble(6, r.nextInt(51) / 100.0);
        ps.setLong(7, now);
        ps.setLong(8, now + 7_200_000L);
        ps.setInt(9, id);
    }

    static String name(SplittableRandom r) {
        StringBuilder sb = new StringBuilder();
        int n = 2 + r.nextInt(2);
        for (int i = 0; i < n; i++) {
            sb.append(SYLLABLES[r.nextInt(SYLLABLES.length)]);
        }
        sb.setCharAt(0, Character.toUpperCase(sb.charAt(0)));
        return sb.toString();
    }

    static String title(SplittableRandom r) {
        return WORDS[r.nextInt(WORDS.length)] + " " + WORDS[r.nextInt(WORDS.length)] + " " + WORDS[r.nextInt(WORDS.length)];
    }

    // ---------------------------------------------------------------- clients

    @Override
    public Client client(Connection c, long seed) {
        return new Session(c, new SplittableRandom(seed));
    }

    /** One emulated browser: a customer (an existing one, or a new one after registering) and a cart. */
    private final class Session implements Client {
        private final Connection c;
        private final SplittableRandom r;
        private final Map<String, PreparedStatement> statements = new HashMap<>();
        private int customer;
        private String uname;
        private double discount;
        private int cart;
        private final MixSequence sequence;
        /** This client's Best Sellers work table (WORK_TABLE form), taken on first use; 0 = none yet. */
        private int workTable;
        private String url;

        Session(Connection c, SplittableRandom r) {
            this.c = c;
            this.r = r;
            this.sequence = new MixSequence(mix.weights, r.nextInt(10_000));
            this.customer = 1 + r.nextInt(data.customers);
            this.uname = "user" + customer;
            this.discount = r.nextInt(51) / 100.0;
        }

        private PreparedStatement ps(String sql) throws SQLException {
            PreparedStatement ps = statements.get(sql);
            if (ps == null) {
                ps = c.prepareStatement(sql);
                statements.put(sql, ps);
            }
            return ps;
        }

        @Override
        public int next() {
            return sequence.next();
        }

        @Override
        public void execute(int interaction) throws SQLException {
            if (!interactionTransactions) {
                run(interaction);
                return;
            }
            boolean readOnly = readsOnly(interaction);
            if (readOnly != c.isReadOnly()) {
                c.setReadOnly(readOnly); // between transactions, as JDBC applications declare a read-only one
            }
            c.setAutoCommit(false);
            RetriedTransaction.run(c, () -> run(interaction), refusals);
        }

        /** The interactions that write nothing (Best Sellers with a work table writes it). */
        private boolean readsOnly(int interaction) {
            return switch (interaction) {
                case SHOPPING_CART, BUY_REQUEST, BUY_CONFIRM, ADMIN_CONFIRM -> false;
                case BEST_SELLERS -> bestSellers == BestSellers.QUERY;
                default -> true;
            };
        }

        private void run(int interaction) throws SQLException {
            switch (interaction) {
                case HOME -> {
                    query(CUSTOMER_NAME, customer);
                    related(item());
                }
                case NEW_PRODUCTS -> query(NEW_PRODUCTS_SQL, subject());
                case BEST_SELLERS -> {
                    if (bestSellers == BestSellers.QUERY) {
                        query(BEST_SELLERS_SQL, data.nextOrder.get() - RECENT_ORDERS, subject());
                    } else {
                        bestSellersWithWorkTable();
                    }
                }
                case PRODUCT_DETAIL, ADMIN_REQUEST -> query(PRODUCT, item());
                case SEARCH_REQUEST -> related(item());
                case SEARCH_RESULTS -> {
                    switch (r.nextInt(3)) {
                        case 0 -> query(SEARCH_BY_AUTHOR, SYLLABLES[r.nextInt(SYLLABLES.length)].toUpperCase().charAt(0)
                                + SYLLABLES[r.nextInt(SYLLABLES.length)].substring(1) + "%");
                        case 1 -> query(SEARCH_BY_TITLE, "%" + WORDS[r.nextInt(WORDS.length)] + "%");
                        default -> query(SEARCH_BY_SUBJECT, subject());
                    }
                }
                case SHOPPING_CART -> {
                    addToCart(item());
                    query(CART, cart);
                    related(item());
                }
                case CUSTOMER_REGISTRATION, ORDER_INQUIRY -> query(CUSTOMER_BY_NAME, uname);
                case BUY_REQUEST -> buyRequest();
                case BUY_CONFIRM -> buyConfirm();
                case ORDER_DISPLAY -> {
                    int order = -1;
                    PreparedStatement ps = ps(LAST_ORDER);
                    ps.setInt(1, customer);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            order = rs.getInt(1);
                        }
                    }
                    if (order > 0) {
                        query(ORDER_LINES, order);
                    }
                }
                case ADMIN_CONFIRM -> adminConfirm();
                default -> throw new IllegalArgumentException("interaction " + interaction);
            }
        }

        private void bestSellersWithWorkTable() throws SQLException {
            if (workTable == 0) {
                String u = c.getMetaData().getURL();
                url = u == null ? "" : u;
                workTable = data.takeWorkTable(url);
                if (data.firstUse(url, workTable)) {
                    try (java.sql.Statement st = c.createStatement()) {
                        st.execute(String.format(WORK_TABLE_CREATE, WORK_TABLE_PREFIX + workTable));
                    }
                }
            }
            String table = WORK_TABLE_PREFIX + workTable;
            update(String.format(WORK_TABLE_CLEAR, table));
            update(String.format(WORK_TABLE_FILL, table));
            query(String.format(WORK_TABLE_BEST_SELLERS, table), subject());
        }

        @Override
        public void close() {
            if (workTable != 0) {
                data.giveBackWorkTable(url, workTable);
                workTable = 0;
            }
        }

        private void related(int item) throws SQLException {
            query(RELATED, item, item, item, item, item);
        }

        private int item() {
            return 1 + r.nextInt(data.items);
        }

        private String subject() {
            return SUBJECTS[r.nextInt(SUBJECTS.length)];
        }

        /** Runs a query and reads every row. */
        private int query(String sql, Object... params) throws SQLException {
            PreparedStatement ps = ps(sql);
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            int rows = 0;
            try (ResultSet rs = ps.executeQuery()) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    for (int k = 1; k <= columns; k++) {
                        rs.getObject(k);
                    }
                    rows++;
                }
            }
            return rows;
        }

        private int update(String sql, Object... params) throws SQLException {
            PreparedStatement ps = ps(sql);
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            return ps.executeUpdate();
        }

        private void addToCart(int item) throws SQLException {
            if (cart == 0) {
                cart = data.nextCart.incrementAndGet();
                update(NEW_CART, cart, System.currentTimeMillis());
            }
            if (update(CART_ADD, cart, item) == 0) {
                update(CART_NEW_LINE, cart, item);
            }
        }

        private void buyRequest() throws SQLException {
            if (r.nextInt(5) == 0) {
                // a new customer registers
                int id = data.nextCustomer.incrementAndGet();
                long now = System.currentTimeMillis();
                SplittableRandom local = r.split();
                PreparedStatement address = ps(NEW_ADDRESS);
                bindAddress(address, id, local);
                address.executeUpdate();
                PreparedStatement cust = ps(NEW_CUSTOMER);
                bindCustomer(cust, id, local, now);
                cust.executeUpdate();
                customer = id;
                uname = "user" + id;
            } else {
                query(CUSTOMER_BY_NAME, uname);
                long now = System.currentTimeMillis();
                update(REFRESH_SESSION, now, now + 7_200_000L, customer);
            }
            if (cart != 0) {
                query(CART, cart);
            }
        }

        private void buyConfirm() throws SQLException {
            if (cart == 0 || r.nextInt(4) == 0) {
                addToCart(item());
            }
            if (interactionTransactions) {
                placeOrder(); // inside the interaction's transaction
                return;
            }
            c.setAutoCommit(false);
            try {
                placeOrder();
                c.commit();
            } catch (SQLException | RuntimeException e) {
                RetriedTransaction.rollbackAfter(c, e);
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }

        /** Buy Confirm's transaction: the cart becomes an order, its lines take stock; the caller commits. */
        private void placeOrder() throws SQLException {
            List<int[]> lines = new ArrayList<>();
            double subTotal = 0;
            PreparedStatement cartQuery = ps(CART);
            cartQuery.setInt(1, cart);
            try (ResultSet rs = cartQuery.executeQuery()) {
                while (rs.next()) {
                    lines.add(new int[] {rs.getInt(1), rs.getInt(2)});
                    subTotal += rs.getInt(2) * rs.getDouble(4) * (1 - discount);
                }
            }
            if (lines.isEmpty()) {
                return; // nothing to order
            }
            int order = data.nextOrder.incrementAndGet();
            long now = System.currentTimeMillis();
            update(NEW_ORDER, order, customer, now, subTotal, subTotal * 1.0825 + 3.0 + lines.size(), customer);
            PreparedStatement ol = ps(NEW_ORDER_LINE);
            PreparedStatement stock = ps(TAKE_STOCK);
            for (int i = 0; i < lines.size(); i++) {
                int[] line = lines.get(i);
                ol.setInt(1, order);
                ol.setInt(2, i + 1);
                ol.setInt(3, line[0]);
                ol.setInt(4, line[1]);
                ol.setDouble(5, discount);
                ol.addBatch();
                stock.setInt(1, line[1]);
                stock.setInt(2, line[1]);
                stock.setInt(3, line[1]);
                stock.setInt(4, line[0]);
                stock.addBatch();
            }
            ol.executeBatch();
            stock.executeBatch();
            update(NEW_CC_XACT, order, "VISA", "4" + (100_000_000_000_000L + r.nextLong(899_999_999_999_999L)),
                    subTotal, now);
            update(CLEAR_CART, cart);
        }

        private void adminConfirm() throws SQLException {
            int item = item();
            update(ADMIN_UPDATE, 1 + r.nextInt(9999) / 100.0, System.currentTimeMillis(), item);
            int[] related = new int[5];
            int n = 0;
            PreparedStatement ps = ps(ADMIN_RELATED);
            ps.setInt(1, data.nextOrder.get() - 10_000);
            ps.setInt(2, item);
            ps.setInt(3, item);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next() && n < 5) {
                    related[n++] = rs.getInt(1);
                }
            }
            while (n < 5) {
                related[n++] = item();
            }
            update(ADMIN_SET_RELATED, related[0], related[1], related[2], related[3], related[4], item);
        }
    }
}
