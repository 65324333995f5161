package org.phalanx.bench.workload;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.phalanx.testkit.jdbc.CostModel;

/**
 * A RUBiS-like auction site (eBay-style) with the RUBiS <b>bidding mix</b>: 80% read-only
 * interactions (browse, search by category or region, view items, bid histories, user pages) and
 * 20% that write (store a bid, a comment, register an item or a user). Trimmed schema, small
 * dataset; ids of new rows are chosen by the clients. Like RUBiS's emulated browsers, which
 * follow the links of the page they are on, a client views, bids on and reads the bid history of
 * items from its last search page, and views (and comments on) the seller of the last item it
 * viewed.
 */
public final class Auction implements Workload {

    public static final List<String> INTERACTIONS = List.of("browse-categories", "browse-regions",
            "search-by-category", "search-by-region", "view-item", "view-bid-history", "view-user",
            "put-bid-form", "store-bid", "store-comment", "register-item", "register-user");
    /** The interactions that write. */
    public static final java.util.Set<String> WRITING = java.util.Set.of("store-bid", "store-comment", "register-item",
            "register-user");
    /** Bidding mix, percent per interaction: the first eight only read (80%), the last four write (20%). */
    private static final int[] WEIGHTS = {10, 5, 25, 5, 20, 7, 5, 3, 12, 3, 3, 2};

    static {
        if (java.util.Arrays.stream(WEIGHTS).sum() != 100) {
            throw new AssertionError("bidding mix does not sum to 100");
        }
    }

    static final int CATEGORIES = 20;

    /** Dataset size and id counters for new rows. */
    public static final class Dataset {
        final int users;
        final int items;
        final int bids;
        final int comments;
        final int regions;
        final AtomicInteger nextUser;
        final AtomicInteger nextItem;
        final AtomicInteger nextBid;
        final AtomicInteger nextComment;

        /** A small dataset: 5 bids per item, a comment per user, 10 regions. */
        public Dataset(int users, int items) {
            this(users, items, items * 5, users, 10);
        }

        public Dataset(int users, int items, int bids, int comments, int regions) {
            this.users = users;
            this.items = items;
            this.bids = bids;
            this.comments = comments;
            this.regions = regions;
            this.nextUser = new AtomicInteger(users);
            this.nextItem = new AtomicInteger(items);
            this.nextBid = new AtomicInteger(bids);
            this.nextComment = new AtomicInteger(comments);
        }

        /**
         * RUBiS's own dataset, times {@code scale}: 1,000,000 users, 33,000 items for sale, 10 bids
         * per item (330,000), 500,000 comments, 20 categories, 62 regions (RUBiS's old_items
         * table, which the bidding mix's interactions here never read, is left out).
         */
        public static Dataset rubis(double scale) {
            return new Dataset((int) (1_000_000 * scale), (int) (33_000 * scale), (int) (330_000 * scale),
                    (int) (500_000 * scale), 62);
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "%,d users, %,d items, %,d bids, %,d comments, %d categories,"
                    + " %d regions", users, items, bids, comments, CATEGORIES, regions);
        }
    }

    static final String CATEGORIES_SQL = "SELECT id, name FROM categories ORDER BY name";
    static final String REGIONS_SQL = "SELECT id, name FROM regions ORDER BY name";
    static final String BY_CATEGORY = "SELECT id, name, initial_price, max_bid, nb_of_bids, end_date FROM items"
            + " WHERE category = ? AND end_date >= ? ORDER BY end_date LIMIT 25";
    static final String BY_REGION = "SELECT i.id, i.name, i.initial_price, i.max_bid, i.nb_of_bids, i.end_date"
            + " FROM items i JOIN users u ON i.seller = u.id WHERE u.region = ? AND i.category = ? AND i.end_date >= ?"
            + " ORDER BY i.end_date LIMIT 25";
    static final String ITEM = "SELECT name, description, initial_price, quantity, reserve_price, buy_now, nb_of_bids,"
            + " max_bid, start_date, end_date, seller, category FROM items WHERE id = ?";
    static final String BID_HISTORY = "SELECT b.bid, b.qty, b.bid_date, u.nickname FROM bids b JOIN users u"
            + " ON b.user_id = u.id WHERE b.item_id = ? ORDER BY b.bid_date DESC";
    static final String USER = "SELECT nickname, firstname, lastname, rating, creation_date FROM users WHERE id = ?";
    static final String USER_COMMENTS = "SELECT c.rating, c.comment_date, c.comment, u.nickname FROM comments c"
            + " JOIN users u ON c.from_user_id = u.id WHERE c.to_user_id = ?";
    static final String AUTH = "SELECT id FROM users WHERE nickname = ? AND password = ?";
    static final String NEW_BID = "INSERT INTO bids (id, user_id, item_id, qty, bid, max_bid, bid_date)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?)";
    static final String RAISE = "UPDATE items SET max_bid = ?, nb_of_bids = nb_of_bids + 1 WHERE id = ?";
    static final String NEW_COMMENT = "INSERT INTO comments (id, from_user_id, to_user_id, item_id, rating,"
            + " comment_date, comment) VALUES (?, ?, ?, ?, ?, ?, ?)";
    static final String RATE = "UPDATE users SET rating = rating + ? WHERE id = ?";
    static final String NEW_ITEM = "INSERT INTO items (id, name, description, initial_price, quantity, reserve_price,"
            + " buy_now, nb_of_bids, max_bid, start_date, end_date, seller, category)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?)";
    static final String NEW_USER = "INSERT INTO users (id, firstname, lastname, nickname, password, email, rating,"
            + " balance, creation_date, region) VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?, ?)";

    private final Dataset data;
    private final long timeStepMillis;
    private final java.util.concurrent.atomic.AtomicLong refusals = new java.util.concurrent.atomic.AtomicLong();

    public Auction(Dataset data) {
        this(data, Duration.ofMillis(1));
    }

    /**
     * @param timeStep the clients pass "now" to the searches rounded down to this step (as an
     *                 application that lists the auctions open at the start of this minute, or as
     *                 C-JDBC's macro time resolution did with NOW()): identical searches within
     *                 one step are identical statements, which a result cache can answer
     */
    public Auction(Dataset data, Duration timeStep) {
        this.data = data;
        this.timeStepMillis = Math.max(1, timeStep.toMillis());
    }

    /** Transactions refused with 40001 and run again, over every client of this workload so far. */
    public long refusals() {
        return refusals.get();
    }

    @Override
    public String name() {
        return "auction bidding";
    }

    @Override
    public List<String> requestClasses() {
        return INTERACTIONS;
    }

    /** Searches cost most, bid histories and user pages some, key lookups little, writes least. */
    public static CostModel costModel() {
        return CostModel.builder()
                .add("search", Duration.ofMillis(10), "ORDER\\s+BY\\s+(i\\.)?end_date")
                .add("history", Duration.ofMillis(2), "ORDER\\s+BY\\s+b\\.bid_date|FROM\\s+comments")
                .add("write", Duration.ofMillis(1).dividedBy(10), "^\\s*(INSERT|UPDATE|DELETE)")
                .add("commit", Duration.ofMillis(4).dividedBy(10), CostModel.COMMIT)
                .add("rollback", Duration.ZERO, CostModel.ROLLBACK)
                .add("light-read", Duration.ofMillis(1).dividedBy(2), ".")
                .build();
    }

    @Override
    public void load(Connection c) throws SQLException {
        Loader.ddl(c, "DROP TABLE IF EXISTS comments", "DROP TABLE IF EXISTS bids", "DROP TABLE IF EXISTS items",
                "DROP TABLE IF EXISTS users", "DROP TABLE IF EXISTS categories", "DROP TABLE IF EXISTS regions",
                "CREATE TABLE categories (id INTEGER PRIMARY KEY, name VARCHAR(50) NOT NULL)",
                "CREATE TABLE regions (id INTEGER PRIMARY KEY, name VARCHAR(25) NOT NULL)",
                "CREATE TABLE users (id INTEGER PRIMARY KEY, firstname VARCHAR(20), lastname VARCHAR(20),"
                        + " nickname VARCHAR(20) NOT NULL, password VARCHAR(20) NOT NULL, email VARCHAR(50),"
                        + " rating INTEGER NOT NULL, balance DOUBLE PRECISION NOT NULL, creation_date BIGINT NOT NULL,"
                        + " region INTEGER NOT NULL)",
                "CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR(100) NOT NULL, description VARCHAR(255),"
                        + " initial_price DOUBLE PRECISION NOT NULL, quantity INTEGER NOT NULL,"
                        + " reserve_price DOUBLE PRECISION, buy_now DOUBLE PRECISION, nb_of_bids INTEGER NOT NULL,"
                        + " max_bid DOUBLE PRECISION NOT NULL, start_date BIGINT NOT NULL, end_date BIGINT NOT NULL,"
                        + " seller INTEGER NOT NULL, category INTEGER NOT NULL)",
                "CREATE TABLE bids (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, item_id INTEGER NOT NULL,"
                        + " qty INTEGER NOT NULL, bid DOUBLE PRECISION NOT NULL, max_bid DOUBLE PRECISION NOT NULL,"
                        + " bid_date BIGINT NOT NULL)",
                "CREATE TABLE comments (id INTEGER PRIMARY KEY, from_user_id INTEGER NOT NULL, to_user_id INTEGER NOT NULL,"
                        + " item_id INTEGER NOT NULL, rating INTEGER NOT NULL, comment_date BIGINT NOT NULL,"
                        + " comment VARCHAR(255))",
                "CREATE UNIQUE INDEX users_nickname ON users (nickname)",
                "CREATE INDEX users_region ON users (region)",
                "CREATE INDEX items_category ON items (category, end_date)",
                "CREATE INDEX items_seller ON items (seller)",
                "CREATE INDEX bids_item ON bids (item_id)",
                "CREATE INDEX comments_to ON comments (to_user_id)");
        SplittableRandom r = new SplittableRandom(7);
        long now = System.currentTimeMillis();
        Loader.insert(c, "INSERT INTO categories (id, name) VALUES (?, ?)", CATEGORIES, (ps, i) -> {
            ps.setInt(1, i);
            ps.setString(2, "category " + i);
        });
        Loader.insert(c, "INSERT INTO regions (id, name) VALUES (?, ?)", data.regions, (ps, i) -> {
            ps.setInt(1, i);
            ps.setString(2, "region " + i);
        });
        Loader.insert(c, NEW_USER, data.users, (ps, i) -> bindUser(ps, i, r, now, data.regions));
        Loader.insert(c, NEW_ITEM, data.items, (ps, i) -> bindItem(ps, i, r, now, 1 + r.nextInt(data.users)));
        Loader.insert(c, NEW_BID, data.bids, (ps, i) -> {
            ps.setInt(1, i);
            ps.setInt(2, 1 + r.nextInt(data.users));
            ps.setInt(3, 1 + r.nextInt(data.items));
            ps.setInt(4, 1);
            double bid = 1 + r.nextInt(10_000) / 10.0;
            ps.setDouble(5, bid);
            ps.setDouble(6, bid);
            ps.setLong(7, now - r.nextLong(86_400_000L * 7));
        });
        Loader.insert(c, NEW_COMMENT, data.comments, (ps, i) -> {
            ps.setInt(1, i);
            ps.setInt(2, 1 + r.nextInt(data.users));
            ps.setInt(3, 1 + r.nextInt(data.users));
            ps.setInt(4, 1 + r.nextInt(data.items));
            ps.setInt(5, r.nextInt(11) - 5);
            ps.setLong(6, now);
            ps.setString(7, "a comment about the deal");
        });
    }

    private static void bindUser(PreparedStatement ps, int id, SplittableRandom r, long now, int regions)
            throws SQLException {
        ps.setInt(1, id);
        ps.setString(2, Bookstore.name(r));
        ps.setString(3, Bookstore.name(r));
        ps.setString(4, "user" + id);
        ps.setString(5, "pw" + id);
        ps.setString(6, "user" + id + "@example.org");
        ps.setLong(7, now);
        ps.setInt(8, 1 + r.nextInt(regions));
    }

    private static void bindItem(PreparedStatement ps, int id, SplittableRandom r, long now, int seller) throws SQLException {
        ps.setInt(1, id);
        ps.setString(2, Bookstore.title(r));
        ps.setString(3, "a very fine " + Bookstore.title(r));
        double price = 1 + r.nextInt(10_000) / 10.0;
        ps.setDouble(4, price);
        ps.setInt(5, 1 + r.nextInt(5));
        ps.setDouble(6, price * 1.5);
        ps.setDouble(7, price * 3);
        ps.setLong(8, now);
        ps.setLong(9, now + r.nextLong(1, 86_400_000L * 7));
        ps.setInt(10, seller);
        ps.setInt(11, 1 + r.nextInt(CATEGORIES));
    }

    @Override
    public Client client(Connection c, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Map<String, PreparedStatement> statements = new HashMap<>();
        int user = 1 + r.nextInt(data.users);
        MixSequence sequence = new MixSequence(WEIGHTS, r.nextInt(100));
        return new Client() {
            private PreparedStatement ps(String sql, Object... params) throws SQLException {
                PreparedStatement ps = statements.get(sql);
                if (ps == null) {
                    ps = c.prepareStatement(sql);
                    statements.put(sql, ps);
                }
                for (int i = 0; i < params.length; i++) {
                    ps.setObject(i + 1, params[i]);
                }
                return ps;
            }

            /** Item ids of the last search page, and the seller of the last item viewed: the page's links. */
            private final int[] listed = new int[25];
            private int listedCount;
            private int seller;

            /** Reads every row; returns column {@code keep}'s values of the first rows into {@code into}. */
            private int queryKeeping(String sql, int keep, int[] into, Object... params) throws SQLException {
                int kept = 0;
                try (ResultSet rs = ps(sql, params).executeQuery()) {
                    int columns = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        for (int k = 1; k <= columns; k++) {
                            Object v = rs.getObject(k);
                            if (k == keep && kept < into.length && v instanceof Number n) {
                                into[kept++] = n.intValue();
                            }
                        }
                    }
                }
                return kept;
            }

            private void query(String sql, Object... params) throws SQLException {
                queryKeeping(sql, 0, new int[0], params);
            }

            private void search(String sql, Object... params) throws SQLException {
                int found = queryKeeping(sql, 1, listed, params);
                listedCount = found; // an empty page leaves no link to follow
            }

            private void viewItem(int item) throws SQLException {
                int[] found = new int[1];
                if (queryKeeping(ITEM, 11, found, item) == 1) {
                    seller = found[0];
                }
            }

            /** As RUBiS's emulated browsers do: an item linked from the last search page, else any item. */
            private int linkedItem() {
                return listedCount > 0 ? listed[r.nextInt(listedCount)] : 1 + r.nextInt(data.items);
            }

            /** The seller of the last item viewed (its page links to them), else any user. */
            private int linkedUser() {
                return seller > 0 ? seller : 1 + r.nextInt(data.users);
            }

            @Override
            public int next() {
                return sequence.next();
            }

            @Override
            public void execute(int interaction) throws SQLException {
                long now = System.currentTimeMillis();
                long listedSince = now - now % timeStepMillis;
                int item = linkedItem();
                switch (interaction) {
                    case 0 -> query(CATEGORIES_SQL);
                    case 1 -> query(REGIONS_SQL);
                    case 2 -> search(BY_CATEGORY, 1 + r.nextInt(CATEGORIES), listedSince);
                    case 3 -> search(BY_REGION, 1 + r.nextInt(data.regions), 1 + r.nextInt(CATEGORIES), listedSince);
                    case 4 -> viewItem(item);
                    case 5 -> query(BID_HISTORY, item);
                    case 6 -> {
                        int u = linkedUser();
                        query(USER, u);
                        query(USER_COMMENTS, u);
                    }
                    case 7 -> {
                        query(AUTH, "user" + user, "pw" + user);
                        viewItem(item);
                    }
                    case 8 -> inTransaction(() -> {
                        double max = 0;
                        try (ResultSet rs = ps(ITEM, item).executeQuery()) {
                            if (rs.next()) {
                                max = rs.getDouble("max_bid");
                            }
                        }
                        double bid = max + 1 + r.nextInt(100) / 10.0;
                        ps(NEW_BID, data.nextBid.incrementAndGet(), user, item, 1, bid, bid, now).executeUpdate();
                        ps(RAISE, bid, item).executeUpdate();
                    });
                    case 9 -> inTransaction(() -> {
                        int to = linkedUser();
                        int rating = r.nextInt(11) - 5;
                        ps(NEW_COMMENT, data.nextComment.incrementAndGet(), user, to, item, rating, now,
                                "smooth sale").executeUpdate();
                        ps(RATE, rating, to).executeUpdate();
                    });
                    case 10 -> {
                        PreparedStatement ps = ps(NEW_ITEM);
                        bindItem(ps, data.nextItem.incrementAndGet(), r, now, user);
                        ps.executeUpdate();
                    }
                    case 11 -> {
                        PreparedStatement ps = ps(NEW_USER);
                        bindUser(ps, data.nextUser.incrementAndGet(), r, now, data.regions);
                        ps.executeUpdate();
                    }
                    default -> throw new IllegalArgumentException("interaction " + interaction);
                }
            }

            /** Runs {@code work} as one transaction, again when it is refused with 40001. */
            private void inTransaction(RetriedTransaction.Work work) throws SQLException {
                c.setAutoCommit(false);
                try {
                    RetriedTransaction.run(c, work, refusals);
                } finally {
                    c.setAutoCommit(true);
                }
            }
        };
    }

}
