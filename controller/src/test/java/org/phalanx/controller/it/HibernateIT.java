package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.phalanx.controller.it.Sql.update;

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
import java.sql.Statement;
import java.util.List;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.phalanx.controller.it.EngineCluster.Kind;

/**
 * Real Hibernate ORM (issue 18) on a SQLite, a PostgreSQL and a MariaDB virtual database of two
 * backends with a recovery log, while another client keeps a transaction open (writing; reading on
 * SQLite, which has one writer at a time): schema creation,
 * IDENTITY and SEQUENCE ids, a relation, 1,000 batched inserts, JPQL with a join, pagination,
 * bulk update and delete, optimistic locking, a rollback and a savepoint; no step waits for the
 * other transaction, and the replicas end identical.
 */
class HibernateIT {
    @TempDir
    Path dir;
    private EngineCluster cluster;

    @Entity(name = "Author")
    @Table(name = "author")
    public static class Author {
        @Id
        @GeneratedValue(strategy = GenerationType.IDENTITY)
        Long id;
        String name;

        public Author() {
        }

        Author(String name) {
            this.name = name;
        }
    }

    @Entity(name = "Book")
    @Table(name = "book")
    public static class Book {
        @Id
        @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "book_ids")
        @SequenceGenerator(name = "book_ids", sequenceName = "book_seq", allocationSize = 50)
        Long id;
        String title;
        int pages;
        @ManyToOne
        Author author;
        @Version
        int version;

        public Book() {
        }

        Book(String title, int pages, Author author) {
            this.title = title;
            this.pages = pages;
            this.author = author;
        }
    }

    /** A joined-inheritance hierarchy: a bulk update of the subclass changes two tables. */
    @Entity(name = "Vehicle")
    @Table(name = "vehicle")
    @jakarta.persistence.Inheritance(strategy = jakarta.persistence.InheritanceType.JOINED)
    public static class Vehicle {
        @Id
        Long id;
        String label;

        public Vehicle() {
        }
    }

    @Entity(name = "Car")
    @Table(name = "car")
    public static class Car extends Vehicle {
        int doors;

        public Car() {
        }

        Car(long id, int doors) {
            this.id = id;
            this.label = "car" + id;
            this.doors = doors;
        }
    }

    /**
     * A bulk update of a joined subclass, which changes two tables: Hibernate collects the ids in a
     * table of its own first (on MariaDB a temporary table it creates inside the transaction).
     */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void aBulkUpdateOfAJoinedSubclass(Kind kind) throws Exception {
        cluster = new EngineCluster(dir, kind, 2, "phalanx_hibernate_joined", "defaultIsolation=\"READ_COMMITTED\"", "",
                "<recoveryLog dir=\"log\"/>");
        Configuration config = new Configuration().addAnnotatedClass(Vehicle.class).addAnnotatedClass(Car.class);
        config.getProperties().put(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, cluster.dataSource());
        config.setProperty(AvailableSettings.DIALECT, switch (kind) {
                    case SQLITE -> "org.hibernate.community.dialect.SQLiteDialect";
                    case POSTGRESQL -> "org.hibernate.dialect.PostgreSQLDialect";
                    case MARIADB -> "org.hibernate.dialect.MariaDBDialect";
                })
                .setProperty(AvailableSettings.HBM2DDL_AUTO, "create");
        try (SessionFactory factory = config.buildSessionFactory()) {
            factory.inTransaction(session -> {
                for (long id = 1; id <= 20; id++) {
                    session.persist(new Car(id, (int) (id % 5)));
                }
            });
            factory.inTransaction(session -> {
                session.persist(new Car(21, 4)); // the transaction writes before the bulk update
                session.flush();
                assertEquals(9, session.createMutationQuery("update Car c set c.label = 'many doors', c.doors = c.doors + 1"
                        + " where c.doors >= 3").executeUpdate());
            });
            factory.inSession(session -> assertEquals(9L, session.createQuery(
                    "select count(c) from Car c where c.label = 'many doors' and c.doors >= 4", Long.class).getSingleResult()));
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("vehicle", "id");
        cluster.assertIdentical("car", "id");
    }

    /**
     * Books get IDENTITY ids, for SQLite: it has no sequences, and Hibernate would emulate book_seq
     * with a table it updates in a transaction of its own, which one SQLite file (one writer at a
     * time) holds back behind the session's own writing transaction for ever.
     */
    static void identityBooks(Configuration config) {
        config.addInputStream(new java.io.ByteArrayInputStream("""
                <entity-mappings xmlns="https://jakarta.ee/xml/ns/persistence/orm" version="3.1">
                  <entity class="%s">
                    <attributes>
                      <id name="id"><generated-value strategy="IDENTITY"/></id>
                    </attributes>
                  </entity>
                </entity-mappings>
                """.formatted(Book.class.getName()).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void anOrmsUsualProgram(Kind kind) throws Exception {
        // optimistic locking as applications use it, at READ COMMITTED: the controller's REPEATABLE
        // READ (MariaDB's default level) locks the tables a transaction read until it ends, so the
        // second of two interleaved transactions on one thread would wait for the first for ever
        cluster = new EngineCluster(dir, kind, 2, "phalanx_hibernate", "defaultIsolation=\"READ_COMMITTED\"", "",
                "<recoveryLog dir=\"log\"/>");
        String busy = kind == Kind.POSTGRESQL ? "other.busy" : "busy";
        try (Connection setup = cluster.connect(); Statement s = setup.createStatement()) {
            if (kind == Kind.POSTGRESQL) {
                s.executeUpdate("CREATE SCHEMA other");
            }
            s.executeUpdate("CREATE TABLE " + busy + " (v INTEGER NOT NULL)");
        }
        Configuration config = new Configuration().addAnnotatedClass(Author.class).addAnnotatedClass(Book.class);
        if (kind == Kind.SQLITE) {
            identityBooks(config);
        }
        config.getProperties().put(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, cluster.dataSource());
        config.setProperty(AvailableSettings.DIALECT, switch (kind) {
                    case SQLITE -> "org.hibernate.community.dialect.SQLiteDialect";
                    case POSTGRESQL -> "org.hibernate.dialect.PostgreSQLDialect";
                    case MARIADB -> "org.hibernate.dialect.MariaDBDialect";
                })
                .setProperty(AvailableSettings.HBM2DDL_AUTO, "create")

                .setProperty(AvailableSettings.STATEMENT_BATCH_SIZE, "50")
                .setProperty(AvailableSettings.ORDER_INSERTS, "true");
        try (Connection longTx = cluster.connect(); SessionFactory factory = config.buildSessionFactory()) {
            longTx.setAutoCommit(false);
            if (kind == Kind.SQLITE) {
                // reading: on one SQLite file too, a writing transaction holds every other writer back
                try (Statement s = longTx.createStatement(); var rs = s.executeQuery("SELECT COUNT(*) FROM " + busy)) {
                    rs.next();
                }
            } else {
                update(longTx, "INSERT INTO " + busy + " VALUES (1)");
            }

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
                List<Book> page = session.createQuery("from Book b order by b.title", Book.class)
                        .setFirstResult(20).setMaxResults(10).getResultList();
                assertEquals(10, page.size());
            });
            factory.inTransaction(session -> {
                assertEquals(100, session.createMutationQuery("update Book b set b.pages = b.pages + 1"
                        + " where b.author.name = :n").setParameter("n", "author1").executeUpdate());
                assertEquals(100, session.createMutationQuery("delete from Book b where b.author.name = :n")
                        .setParameter("n", "author2").executeUpdate());
            });
            // optimistic locking: the second of two concurrent changes of one book fails
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
            // a rollback leaves nothing; a savepoint undoes what follows it
            try (Session s = factory.openSession()) {
                s.beginTransaction();
                s.persist(new Author("rolled back"));
                s.flush();
                s.getTransaction().rollback();
            }
            factory.inTransaction(s -> {
                s.persist(new Author("kept"));
                s.flush();
                s.doWork(c -> {
                    java.sql.Savepoint sp = c.setSavepoint();
                    try (Statement st = c.createStatement()) {
                        st.executeUpdate("UPDATE author SET name = 'undone' WHERE name = 'kept'");
                    }
                    c.rollback(sp);
                });
            });
            factory.inSession(s -> {
                assertEquals(0L, s.createQuery("select count(a) from Author a where a.name in ('rolled back', 'undone')",
                        Long.class).getSingleResult());
                assertEquals(1L, s.createQuery("select count(a) from Author a where a.name = 'kept'", Long.class)
                        .getSingleResult());
            });
            longTx.commit();
        }
        cluster.assertAllEnabled();
        cluster.stopController();
        cluster.assertIdentical("author", "id");
        assertEquals(900, cluster.assertIdentical("book", "id"));
        // the sequence advanced alike on every backend: a failover would not hand out ids twice
        if (kind == Kind.SQLITE) {
            return; // no sequence (above)
        }
        String counter = kind == Kind.POSTGRESQL ? "SELECT last_value FROM book_seq"
                : "SELECT next_not_cached_value FROM book_seq";
        java.util.Set<Long> counters = new java.util.HashSet<>();
        for (String b : cluster.backends()) {
            try (Connection c = cluster.direct(b); Statement s = c.createStatement(); var rs = s.executeQuery(counter)) {
                rs.next();
                counters.add(rs.getLong(1));
            }
        }
        assertEquals(1, counters.size(), "book_seq on every backend: " + counters);
    }
}
