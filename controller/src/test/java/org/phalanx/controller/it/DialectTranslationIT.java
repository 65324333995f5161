package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.hibernate.dialect.Dialect;
import org.hibernate.dialect.MariaDBDialect;
import org.hibernate.dialect.PostgreSQLDialect;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.phalanx.controller.it.HibernateIT.Author;
import org.phalanx.requestmanager.api.BackendState;
import org.phalanx.requestmanager.stats.StatementStatistics;

/**
 * Issue 20: real Flyway, real Hibernate ORM 6 and TPC-C on a virtual database over SQLite, PostgreSQL and MariaDB replicas that
 * declares it speaks PostgreSQL, and again MariaDB (issue 20): Hibernate detects its dialect from
 * the driver's metadata as it would connected to the real database, then creates the schema, takes
 * IDENTITY and SEQUENCE ids, batches inserts, runs JPQL with joins, aggregates and pagination, bulk
 * updates and deletes, optimistic locking and a rollback; every statement is translated for the
 * other two engines, every result is right, no backend is disabled and the three replicas end
 * identical, read straight from each engine. Every statement template they sent is listed with
 * its outcome (the corpus, {@link #corpus}).
 */
class DialectTranslationIT {
    @TempDir
    Path dir;

    @Entity(name = "Book")
    @Table(name = "book")
    public static class Book {
        @Id
        @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "book_ids")
        @SequenceGenerator(name = "book_ids", sequenceName = "book_seq", allocationSize = 50)
        Long id;
        String title;
        int pages;
        boolean paperback;
        @ManyToOne
        Author author; // HibernateIT's
        @Version
        int version;

        public Book() {
        }

        Book(String title, int pages, Author author) {
            this.title = title;
            this.pages = pages;
            this.paperback = pages % 2 == 0;
            this.author = author;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb"})
    void hibernateFlywayAndTpccOnEveryEngine(String sqlDialect) throws Exception {
        try (HeterogeneousCluster cluster = new HeterogeneousCluster(dir, "phalanx_hetero_orm_" + sqlDialect, "all",
                sqlDialect)) {
            org.phalanx.driver.PhalanxDataSource ds = new org.phalanx.driver.PhalanxDataSource();
            ds.setUrl("jdbc:phalanx://127.0.0.1:" + cluster.controller.port() + "/vdb");
            ds.setUser("app");
            ds.setPassword("secret");
            flyway(ds); // first: Flyway wants an empty schema
            hibernate(ds, sqlDialect);
            tpcc(ds);
            corpus(cluster, sqlDialect);
            metadataInTheDeclaredDialect(cluster, ds, sqlDialect);
            semanticsOfTheDeclaredDialect(ds, sqlDialect);
            for (String b : HeterogeneousCluster.BACKENDS) {
                assertEquals(BackendState.ENABLED, cluster.vdb().backendStates().get(b), b + ": " + cluster.vdb().backendStates());
            }
            cluster.controller.stop();
            assertEquals(10, cluster.assertIdentical("author", "id"));
            assertEquals(900, cluster.assertIdentical("book", "id"));
            assertEquals(2, cluster.assertIdentical("account", "id"));
            // book_seq advanced alike: SQLite's table, PostgreSQL's and MariaDB's sequences hand out the same next value
            java.util.Set<Long> next = new java.util.HashSet<>();
            for (String[] b : new String[][] {{"lite", "SELECT next_val FROM book_seq"},
                    {"pg", "SELECT last_value + 50 FROM book_seq"}, {"maria", "SELECT next_not_cached_value FROM book_seq"}}) {
                try (Connection c = cluster.direct(b[0]); java.sql.Statement st = c.createStatement();
                     java.sql.ResultSet rs = st.executeQuery(b[1])) {
                    rs.next();
                    next.add(rs.getLong(1));
                }
            }
            assertEquals(1, next.size(), "book_seq's next value on lite, pg, maria: " + next);
            for (Map.Entry<String, String> table : Tpcc.TABLES.entrySet()) {
                assertTrue(cluster.assertIdentical(table.getKey(), table.getValue()) > 0, table.getKey());
            }
        }
    }

    /**
     * Where the engines disagree, the declared dialect's meaning, whichever replica the balancer
     * would pick (six tries: each backend twice): a read that divides is answered by the declared
     * engine, a write that divides is refused (0A000) and disables nothing, LIKE tells case apart
     * on every replica.
     */
    private static void semanticsOfTheDeclaredDialect(javax.sql.DataSource ds, String sqlDialect) throws Exception {
        boolean pg = sqlDialect.equals("postgresql");
        try (Connection c = ds.getConnection(); java.sql.Statement st = c.createStatement()) {
            for (int i = 0; i < 6; i++) {
                try (java.sql.ResultSet rs = st.executeQuery("SELECT 7 / 2 AS q")) {
                    rs.next();
                    assertEquals(pg ? "3" : "3.5000", rs.getString(1), "7 / 2");
                }
                if (pg) {
                    java.sql.SQLException e = assertThrows(java.sql.SQLException.class, () -> st.executeQuery("SELECT 1 / 0"));
                    assertEquals("22012", e.getSQLState());
                } else {
                    try (java.sql.ResultSet rs = st.executeQuery("SELECT 1 / 0 AS q")) {
                        rs.next();
                        assertEquals(null, rs.getObject(1), "1 / 0");
                    }
                }
                try (java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*) AS n FROM account WHERE owner LIKE 'A%'")) {
                    rs.next();
                    assertEquals(0, rs.getInt(1), "owners ann and bob LIKE 'A%'");
                }
            }
            // a temporary table lives on a backend of the declared engine, the session's own
            st.executeUpdate(pg ? "CREATE TEMP TABLE scratch (a INTEGER)" : "CREATE TEMPORARY TABLE scratch (a INTEGER)");
            st.executeUpdate("INSERT INTO scratch VALUES (7), (8)");
            try (java.sql.ResultSet rs = st.executeQuery("SELECT SUM(a) AS s FROM scratch")) {
                rs.next();
                assertEquals(15, rs.getInt(1));
            }
            st.executeUpdate("DROP TABLE scratch");
            java.sql.SQLException refused = assertThrows(java.sql.SQLException.class,
                    () -> st.executeUpdate("UPDATE account SET balance = balance / 3"));
            assertEquals("0A000", refused.getSQLState());
            assertTrue(refused.getMessage().contains("divides"), refused.getMessage());
            refused = assertThrows(java.sql.SQLException.class,
                    () -> st.executeUpdate("INSERT INTO account (id, owner, balance) VALUES (3, 'cy', 1) RETURNING id"));
            assertEquals("0A000", refused.getSQLState());
            assertTrue(refused.getMessage().contains("SQLite") && refused.getMessage().contains("RETURNING"),
                    refused.getMessage());
            try (java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*) AS n FROM account WHERE id = 3")) {
                rs.next();
                assertEquals(0, rs.getInt(1), "the refused insert ran nowhere");
            }
        }
    }

    /**
     * The driver reports the declared dialect's product, and metadata answers come from a backend of
     * that engine: a column's type as that engine names it, whichever replica would serve a read.
     */
    private static void metadataInTheDeclaredDialect(HeterogeneousCluster cluster, javax.sql.DataSource ds,
                                                     String sqlDialect) throws Exception {
        String backend = sqlDialect.equals("postgresql") ? "pg" : "maria";
        try (Connection direct = cluster.direct(backend); Connection c = ds.getConnection()) {
            assertEquals(direct.getMetaData().getDatabaseProductName(), c.getMetaData().getDatabaseProductName());
            assertEquals(direct.getMetaData().getDatabaseMajorVersion(), c.getMetaData().getDatabaseMajorVersion());
            for (int i = 0; i < 3; i++) { // the balancer would have chosen each replica in turn
                List<String> expected = columnTypes(direct.getMetaData().getColumns(direct.getCatalog(), null, "book", "%"));
                assertEquals(expected, columnTypes(c.getMetaData().getColumns(null, null, "book", "%")));
            }
        }
    }

    private static List<String> columnTypes(java.sql.ResultSet rs) throws java.sql.SQLException {
        List<String> types = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                types.add(rs.getString("COLUMN_NAME") + " " + rs.getString("TYPE_NAME") + " " + rs.getInt("DATA_TYPE"));
            }
        }
        types.sort(null);
        return types;
    }

    /**
     * TPC-C's statements (with SELECT ... FOR UPDATE, left out on SQLite): the schema, the load, and
     * two terminals for two seconds.
     */
    private static void tpcc(javax.sql.DataSource ds) throws Exception {
        Tpcc tpcc = new Tpcc(1, true);
        try (Connection c = ds.getConnection()) {
            tpcc.createSchema(c);
            tpcc.load(c, 20_261_127L);
        }
        Tpcc.Stats stats = new Tpcc.Stats();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<?>> terminals = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            long seed = 7L + t;
            terminals.add(pool.submit(() -> {
                try (Connection c = ds.getConnection()) {
                    c.setAutoCommit(false);
                    tpcc.new Terminal(c, 1, seed, stats).run(stop::get);
                }
                return null;
            }));
        }
        Thread.sleep(2_000);
        stop.set(true);
        for (Future<?> f : terminals) {
            f.get(1, TimeUnit.MINUTES);
        }
        pool.shutdown();
        assertTrue(stats.total(stats.committed) > 0, "TPC-C transactions committed: " + stats);
    }

    /**
     * Issue 20, done-when 2: every statement Flyway, Hibernate and TPC-C sent (by template, as the
     * virtual database counted them) ran on the three engines — each translated from the declared
     * dialect for the other two — without an error, but for those refused on purpose (foreign keys
     * added to a table, which SQLite cannot do) and Hibernate's drops of what does not exist yet. The corpus is written to
     * target/translation-corpus-DIALECT.txt.
     */
    private static void corpus(HeterogeneousCluster cluster, String sqlDialect) throws Exception {
        List<StatementStatistics.Snapshot> corpus = cluster.vdb().requestManager().orElseThrow().topStatements(100_000);
        StringBuilder text = new StringBuilder();
        List<String> failed = new ArrayList<>();
        for (StatementStatistics.Snapshot s : corpus) {
            text.append(s.count()).append('\t').append(s.errors()).append('\t').append(s.template()).append('\n');
            String t = s.template().toLowerCase(java.util.Locale.ROOT);
            boolean expected = t.contains(" constraint ") || t.contains("foreign key") || t.startsWith("drop sequence");
            if (s.errors() > 0 && !expected) {
                failed.add(s.errors() + " of " + s.count() + ": " + s.template());
            }
        }
        java.nio.file.Files.writeString(Path.of("target", "translation-corpus-" + sqlDialect + ".txt"), text);
        assertTrue(corpus.size() > 60, "statement templates: " + corpus.size());
        assertEquals(List.of(), failed, "statements that failed");
    }

    private static void flyway(javax.sql.DataSource ds) {
        org.flywaydb.core.api.configuration.FluentConfiguration config = org.flywaydb.core.Flyway.configure()
                .dataSource(ds).locations("classpath:flyway/app");
        // a session-level advisory lock instead of one held by a transaction of its own
        config.getConfigurationExtension(org.flywaydb.database.postgresql.PostgreSQLConfigurationExtension.class)
                .setTransactionalLock(false);
        org.flywaydb.core.Flyway flyway = config.load();
        assertEquals(3, flyway.migrate().migrationsExecuted);
        assertEquals(3, flyway.info().applied().length);
        flyway.validate();
    }

    /** Hibernate's usual program, with its dialect detected; the results checked on the way. */
    private static void hibernate(javax.sql.DataSource ds, String sqlDialect) {
            Configuration config = new Configuration().addAnnotatedClass(Author.class).addAnnotatedClass(Book.class);
            config.getProperties().put(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, ds);
            config.setProperty(AvailableSettings.HBM2DDL_AUTO, "create")
                    .setProperty(AvailableSettings.STATEMENT_BATCH_SIZE, "50")
                    .setProperty(AvailableSettings.ORDER_INSERTS, "true");
            try (SessionFactory factory = config.buildSessionFactory()) {
                Dialect dialect = factory.unwrap(SessionFactoryImplementor.class).getJdbcServices().getDialect();
                assertTrue(sqlDialect.equals("postgresql") ? dialect instanceof PostgreSQLDialect
                        : dialect instanceof MariaDBDialect, "detected " + dialect);

                factory.inTransaction(session -> {
                    for (int a = 0; a < 10; a++) {
                        Author author = new Author("author" + a);
                        session.persist(author);
                        for (int b = 0; b < 100; b++) {
                            session.persist(new Book("book" + a + "-" + b, 100 + b, author));
                            if (b % 50 == 49) {
                                session.flush();
                                session.clear();
                                author = session.merge(author);
                            }
                        }
                    }
                });
                factory.inSession(session -> {
                    assertEquals(1000L, session.createQuery("select count(b) from Book b", Long.class).getSingleResult());
                    assertEquals(100L, session.createQuery(
                            "select count(b) from Book b join b.author a where a.name = :n", Long.class)
                            .setParameter("n", "author3").getSingleResult());
                    assertEquals(50L, session.createQuery(
                            "select count(b) from Book b where b.paperback = true and b.author.name = :n", Long.class)
                            .setParameter("n", "author3").getSingleResult());
                    Object[] stats = session.createQuery("select a.name, sum(b.pages), max(b.pages) from Book b"
                            + " join b.author a group by a.name having a.name = :n", Object[].class)
                            .setParameter("n", "author4").getSingleResult();
                    assertEquals(14950L, ((Number) stats[1]).longValue());
                    assertEquals(199, ((Number) stats[2]).intValue());
                    List<Book> page = session.createQuery("from Book b order by b.title", Book.class)
                            .setFirstResult(20).setMaxResults(10).getResultList();
                    assertEquals(10, page.size());
                    assertEquals("book0-27", page.get(0).title);
                    List<String> names = session.createQuery("select a.name from Author a order by a.id", String.class)
                            .setMaxResults(3).getResultList();
                    assertEquals(List.of("author0", "author1", "author2"), names);
                });
                // a condition following an association: written with a join of the declared dialect's own
                // (PostgreSQL's ctid, MariaDB's multi-table UPDATE/DELETE), carried to the others as a subquery
                factory.inTransaction(session -> {
                    assertEquals(100, session.createMutationQuery("update Book b set b.pages = b.pages + 1"
                            + " where b.author.name = :n").setParameter("n", "author1").executeUpdate());
                    assertEquals(100, session.createMutationQuery("delete from Book b where b.author.name = :n")
                            .setParameter("n", "author2").executeUpdate());
                    assertEquals(100, session.createMutationQuery("update Book b set b.pages = b.pages - 1"
                            + " where b.author.id in (select a.id from Author a where a.name = :n)")
                            .setParameter("n", "author5").executeUpdate());
                });
                Long bookId = factory.fromSession(s -> s.createQuery("select min(b.id) from Book b", Long.class)
                        .getSingleResult());
                try (Session first = factory.openSession(); Session second = factory.openSession()) {
                    first.beginTransaction();
                    second.beginTransaction();
                    first.find(Book.class, bookId).pages = 1;
                    second.find(Book.class, bookId).pages = 2;
                    first.getTransaction().commit();
                    assertThrows(OptimisticLockException.class, () -> second.getTransaction().commit());
                }
                try (Session s = factory.openSession()) {
                    s.beginTransaction();
                    s.persist(new Author("rolled back"));
                    s.flush();
                    s.getTransaction().rollback();
                }
                factory.inSession(s -> {
                    assertEquals(0L, s.createQuery("select count(a) from Author a where a.name = 'rolled back'",
                            Long.class).getSingleResult());
                    assertEquals(1, s.find(Book.class, bookId).pages);
                });
            }
    }
}
