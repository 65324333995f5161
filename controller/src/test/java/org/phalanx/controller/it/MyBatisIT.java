package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Options;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.SelectKey;
import org.apache.ibatis.annotations.Update;
import org.apache.ibatis.datasource.unpooled.UnpooledDataSource;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.ExecutorType;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;
import org.phalanx.testkit.db.DatabaseServer;

/**
 * Real MyBatis (annotated mappers, generated keys into the object, the batch executor, a rolled-back
 * session, and on SQLite and MariaDB {@code <selectKey>} with the session's last insert id from two
 * sessions at once) through a virtual database of two SQLite, PostgreSQL or MariaDB backends with a recovery
 * log, and the same steps on one database directly: what MyBatis got, and the table, must be what
 * one database gives, and the replicas identical.
 */
class MyBatisIT {
    @TempDir
    Path dir;
    @AutoClose
    private EngineCluster cluster;
    @AutoClose
    private DirectDatabase direct;

    /** A row of table {@code item}, as MyBatis maps it. */
    public static class Item {
        private Integer id;
        private String name;
        private int qty;

        public Item() {
        }

        Item(String name, int qty) {
            this.name = name;
            this.qty = qty;
        }

        public Integer getId() {
            return id;
        }

        public void setId(Integer id) {
            this.id = id;
        }

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public int getQty() {
            return qty;
        }

        public void setQty(int qty) {
            this.qty = qty;
        }

        @Override
        public String toString() {
            return id + " " + name + " " + qty;
        }
    }

    /** The application's mapper. */
    public interface ItemMapper {
        @Insert("INSERT INTO item (name, qty) VALUES (#{name}, #{qty})")
        @Options(useGeneratedKeys = true, keyProperty = "id", keyColumn = "id")
        int insert(Item item);

        @Update("UPDATE item SET qty = qty + #{delta} WHERE name = #{name}")
        int add(@Param("name") String name, @Param("delta") int delta);

        @Select("SELECT id, name, qty FROM item WHERE id = #{id}")
        Item find(int id);

        @Select("SELECT id, name, qty FROM item ORDER BY id")
        List<Item> all();
    }

    /** MyBatis's classic key idiom on MariaDB: the insert, then the session's {@code LAST_INSERT_ID()}. */
    public interface MariaDbSelectKey {
        @Insert("INSERT INTO item (name, qty) VALUES (#{name}, #{qty})")
        @SelectKey(statement = "SELECT LAST_INSERT_ID()", keyProperty = "id", before = false, resultType = Integer.class)
        int insert(Item item);
    }

    /** The same on SQLite, with {@code last_insert_rowid()}. */
    public interface SqliteSelectKey {
        @Insert("INSERT INTO item (name, qty) VALUES (#{name}, #{qty})")
        @SelectKey(statement = "SELECT last_insert_rowid()", keyProperty = "id", before = false, resultType = Integer.class)
        int insert(Item item);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void mappersBatchesAndRollbacksDoWhatTheyDoOnOneDatabase(Kind kind) throws Exception {
        direct = new DirectDatabase(dir, kind, "phalanx_mybatisdirect");
        List<String> expected = run(direct, directDataSource(kind, direct.url()));

        cluster = new EngineCluster(dir, kind, 2, "phalanx_mybatis", "", "", "<recoveryLog dir=\"log\"/>");
        assertEquals(expected, run(cluster::connect, cluster.dataSource()), "what MyBatis got, as from one database");
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("item", "id");
    }

    private static DataSource directDataSource(Kind kind, String url) {
        DatabaseServer server = kind == Kind.POSTGRESQL ? DatabaseServer.POSTGRESQL : DatabaseServer.MARIADB;
        return switch (kind) {
            case SQLITE -> new UnpooledDataSource("org.sqlite.JDBC", url, null, null);
            case POSTGRESQL -> new UnpooledDataSource("org.postgresql.Driver", url, server.user(), server.password());
            case MARIADB -> new UnpooledDataSource("org.mariadb.jdbc.Driver", url, server.user(), server.password());
        };
    }

    private static List<String> run(ConnectionSource setup, DataSource ds) throws Exception {
        try (Connection c = setup.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE item (id INTEGER PRIMARY KEY " + autoIncrement(c)
                    + ", name VARCHAR(50) NOT NULL UNIQUE, qty INTEGER NOT NULL)");
        }
        Configuration configuration = new Configuration(new Environment("test", new JdbcTransactionFactory(), ds));
        configuration.addMapper(ItemMapper.class);
        SqlSessionFactory factory = new SqlSessionFactoryBuilder().build(configuration);
        List<String> seen = new ArrayList<>();
        try (SqlSession session = factory.openSession()) {
            ItemMapper items = session.getMapper(ItemMapper.class);
            Item apple = new Item("apple", 1);
            seen.add("inserted " + items.insert(apple) + ", key " + apple.getId());
            session.commit();
            seen.add("found " + items.find(apple.getId()));
        }
        try (SqlSession batch = factory.openSession(ExecutorType.BATCH)) {
            ItemMapper items = batch.getMapper(ItemMapper.class);
            List<Item> fruit = List.of(new Item("pear", 2), new Item("plum", 3), new Item("fig", 4));
            for (Item f : fruit) {
                items.insert(f);
            }
            items.add("apple", 10);
            batch.flushStatements();
            batch.commit();
            fruit.forEach(f -> seen.add("batched key " + f.getId()));
        }
        try (SqlSession rolledBack = factory.openSession()) {
            ItemMapper items = rolledBack.getMapper(ItemMapper.class);
            items.insert(new Item("never", 0));
            items.add("pear", 100);
            rolledBack.rollback();
        }
        Class<?> selectKey = selectKeyMapper(ds);
        if (selectKey != null) {
            // two sessions at once, interleaved: each gets its own insert's key
            configuration.addMapper(selectKey);
            try (SqlSession one = factory.openSession(true); SqlSession two = factory.openSession(true)) {
                Item kiwi = new Item("kiwi", 5);
                Item lime = new Item("lime", 6);
                Item date = new Item("date", 7);
                insertSelectingKey(one, selectKey, kiwi);
                insertSelectingKey(two, selectKey, lime);
                insertSelectingKey(one, selectKey, date);
                seen.add("selected keys " + kiwi.getId() + " " + lime.getId() + " " + date.getId());
            }
        }
        try (SqlSession session = factory.openSession()) {
            session.getMapper(ItemMapper.class).all().forEach(i -> seen.add(i.toString()));
        }
        return seen;
    }

    /** The engine's {@code <selectKey>} mapper, or null (PostgreSQL: {@code lastval()} is not followed, docs/jdbc-unsupported.md). */
    private static Class<?> selectKeyMapper(DataSource ds) throws Exception {
        try (Connection c = ds.getConnection()) {
            String product = c.getMetaData().getDatabaseProductName().toLowerCase();
            return product.contains("sqlite") ? SqliteSelectKey.class
                    : product.contains("mariadb") || product.contains("mysql") ? MariaDbSelectKey.class : null;
        }
    }

    private static void insertSelectingKey(SqlSession session, Class<?> mapper, Item item) {
        if (mapper == SqliteSelectKey.class) {
            session.getMapper(SqliteSelectKey.class).insert(item);
        } else {
            session.getMapper(MariaDbSelectKey.class).insert(item);
        }
    }

    private static String autoIncrement(Connection c) throws Exception {
        String product = c.getMetaData().getDatabaseProductName().toLowerCase();
        return product.contains("sqlite") ? "AUTOINCREMENT" : product.contains("postgres") ? "GENERATED BY DEFAULT AS IDENTITY"
                : "AUTO_INCREMENT";
    }
}
