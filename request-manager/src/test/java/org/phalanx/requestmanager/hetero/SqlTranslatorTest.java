package org.phalanx.requestmanager.hetero;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.phalanx.engine.Engine;

class SqlTranslatorTest {
    private final SqlTranslator fromPostgres = new SqlTranslator(Engine.POSTGRESQL,
            Set.of(Engine.SQLITE, Engine.POSTGRESQL, Engine.MARIADB), DeclaredSchema.of(java.util.List.of(), Engine.POSTGRESQL), 100);
    private final SqlTranslator fromMariadb = new SqlTranslator(Engine.MARIADB,
            Set.of(Engine.SQLITE, Engine.POSTGRESQL, Engine.MARIADB), 100);

    @Test
    void theDeclaredEngineGetsTheStatementAsWritten() throws SQLException {
        String sql = "select x from t where y = ? offset ? rows fetch first ? rows only";
        assertSame(sql, fromPostgres.translate(sql, Engine.POSTGRESQL));
    }

    @Test
    void theOtherEnginesGetJooqsRendering() throws SQLException {
        String sql = "SELECT p.name, COUNT(*) AS n FROM person p JOIN orders o ON o.person_id=p.id WHERE p.id > ? GROUP BY p.name";
        String rendered = "select p.name, count(*) as n from person as p join orders as o on o.person_id = p.id"
                + " where p.id > ? group by p.name";
        assertEquals(rendered, fromPostgres.translate(sql, Engine.SQLITE));
        assertEquals(rendered, fromPostgres.translate(sql, Engine.MARIADB));
        // SQLite's UPDATE takes an alias after AS only
        assertEquals("update book as b1_0 set pages = (b1_0.pages + 1) where b1_0.id = ?",
                fromPostgres.translate("update book b1_0 set pages=(b1_0.pages+1) where b1_0.id=?", Engine.SQLITE));
    }

    @Test
    void mariadbsDeleteOfAnAliasIsAPlainDeleteElsewhere() throws SQLException {
        assertEquals("delete from book as b1_0 where b1_0.author_id in (select a2_0.id from author as a2_0 where a2_0.name = ?)",
                fromMariadb.translate("delete b1_0 from book b1_0 where b1_0.author_id in"
                        + " (select a2_0.id from author a2_0 where a2_0.name=?)", Engine.POSTGRESQL));
    }

    @Test
    void parametersMovedByTheTranslationAreNumberedOnSqlite() throws SQLException {
        String sql = "select c.id from customer c where c.id > ? offset ? rows fetch first ? rows only";
        assertEquals("select c.id from customer as c where c.id > ?1 limit ?3 offset ?2",
                fromPostgres.translate(sql, Engine.SQLITE));
        assertEquals("select c.id from customer as c where c.id > ? offset ? rows fetch next ? rows only",
                fromPostgres.translate(sql, Engine.MARIADB)); // MariaDB knows OFFSET ... FETCH
    }

    @Test
    void mariadbPaginationAndAliasedDeletesAreTranslated() throws SQLException {
        // LIMIT offset, count: the offset comes first
        assertEquals("select * from t limit ?2 offset ?1", fromMariadb.translate("select * from t limit ?, ?", Engine.SQLITE));
        assertEquals("delete from o using orders as o where o.id = ?",
                fromPostgres.translate("delete from orders o where o.id = ?", Engine.MARIADB));
    }

    @Test
    void concatenationAndBooleansTakeEachEnginesForm() throws SQLException {
        assertTrue(fromPostgres.translate("select a || b as ab from t", Engine.MARIADB).contains("concat("));
        assertEquals("select count(*) as n from t where flag = 1",
                fromPostgres.translate("select count(*) as n from t where flag = true", Engine.SQLITE));
    }

    @Test
    void rowLocksAreLeftOutOnSqliteOnly() throws SQLException {
        String sql = "select x from t where id = ? for update";
        assertEquals("select x from t where id = ?", fromPostgres.translate(sql, Engine.SQLITE));
        assertEquals(sql, fromPostgres.translate(sql, Engine.MARIADB));
    }

    @Test
    void whatAnEngineCannotExpressIsRefusedNamingConstructAndEngine() {
        SQLException e = assertThrows(SQLException.class, () -> fromPostgres.check("insert into t (a) values (?) returning id"));
        assertEquals("0A000", e.getSQLState());
        assertTrue(e.getMessage().contains("SQLite"), e.getMessage());
        assertTrue(e.getMessage().contains("RETURNING"), e.getMessage());
        e = assertThrows(SQLException.class, () -> fromMariadb.check("select a from t where b = @x"));
        assertTrue(e.getMessage().contains("user variables"), e.getMessage());
        e = assertThrows(SQLException.class, () -> fromPostgres.check(
                "alter table if exists book add constraint fk1 foreign key (author_id) references author"));
        assertTrue(e.getMessage().contains("ADD/DROP CONSTRAINT"), e.getMessage());
        e = assertThrows(SQLException.class, () -> fromPostgres.check("insert into t (id) values (nextval('s'))"));
        assertTrue(e.getMessage().contains("sequences"), e.getMessage());
    }

    @Test
    void hibernatesJoinedBulkWritesBecomeCorrelatedSubqueries() throws SQLException {
        String fromPg = "update book set pages=(b1_0.pages+?) from book b1_0 join author a1_0 on a1_0.id=b1_0.author_id"
                + " where a1_0.name=? and book.ctid=b1_0.ctid";
        String portable = "update book as b1_0 set pages = (b1_0.pages + ?) where exists (select 1 from author as a1_0"
                + " where (a1_0.id = b1_0.author_id and a1_0.name = ?))";
        assertEquals(portable, fromPostgres.translate(fromPg, Engine.SQLITE));
        assertEquals(portable, fromPostgres.translate(fromPg, Engine.MARIADB));
        assertSame(fromPg, fromPostgres.translate(fromPg, Engine.POSTGRESQL));
        assertEquals(portable, fromMariadb.translate("update book b1_0 join author a1_0 on a1_0.id=b1_0.author_id"
                + " set pages=(b1_0.pages+?) where a1_0.name=?", Engine.POSTGRESQL));
        assertEquals("delete from book as b1_0 where exists (select 1 from author as a1_0 where (a1_0.id = b1_0.author_id"
                + " and a1_0.name = ?))", fromMariadb.translate("delete b1_0 from book b1_0 join author a1_0"
                + " on a1_0.id=b1_0.author_id where a1_0.name=?", Engine.SQLITE));
        // an outer join is another matter: left as it is, and refused where it cannot run
        SQLException e = assertThrows(SQLException.class, () -> fromMariadb.check("update book b1_0 left join author a1_0"
                + " on a1_0.id=b1_0.author_id set pages=(b1_0.pages+?) where a1_0.name is null"));
        assertTrue(e.getMessage().contains("UPDATE of joined tables"), e.getMessage());
    }

    @Test
    void dropTableCascadeIsPlainOnSqlite() throws SQLException {
        assertEquals("drop table if exists author", fromPostgres.translate("drop table if exists author cascade", Engine.SQLITE));
    }

    @Test
    void mariadbTableOptionsStayOnMariadb() throws SQLException {
        String sql = "create table t (id bigint not null, name varchar(20), primary key (id)) engine=InnoDB";
        assertSame(sql, fromMariadb.translate(sql, Engine.MARIADB));
        assertEquals("create table t (id bigint not null, name varchar(20), primary key (id))",
                fromMariadb.translate(sql, Engine.POSTGRESQL));
    }

    @Test
    void sequencesAreOneRowTablesOnSqlite() throws SQLException {
        assertEquals("CREATE TABLE book_seq AS SELECT 1 AS next_val, 50 AS increment_by",
                fromPostgres.translate("create sequence book_seq start with 1 increment by 50", Engine.SQLITE));
        assertEquals("CREATE TABLE book_seq AS SELECT 1 AS next_val, 50 AS increment_by",
                fromMariadb.translate("create sequence book_seq start with 1 increment by 50 nocache", Engine.SQLITE));
        assertEquals("DROP TABLE IF EXISTS book_seq",
                fromPostgres.translate("drop sequence if exists book_seq cascade", Engine.SQLITE));
        String next = "UPDATE book_seq SET next_val = next_val + increment_by RETURNING next_val - increment_by AS nextval";
        assertEquals(next, fromPostgres.translate("select nextval('book_seq')", Engine.SQLITE));
        assertEquals(next, fromMariadb.translate("select next value for book_seq", Engine.SQLITE));
        assertEquals(next, fromMariadb.translate("select nextval(book_seq)", Engine.SQLITE));
    }

    @Test
    void whatCannotBeReadInTheDeclaredDialectIsRefused() {
        SQLException e = assertThrows(SQLException.class, () -> fromPostgres.check("selec x frm t"));
        assertEquals("0A000", e.getSQLState());
        assertTrue(e.getMessage().contains("cannot be read as PostgreSQL SQL"), e.getMessage());
    }

    @Test
    void wordsInsideLiteralsAreNotConstructs() throws SQLException {
        fromPostgres.check("select x from t where note = 'returning nextval(' and y = ?");
    }

    @Test
    void aRefusalIsAFreshExceptionEachTime() {
        SQLException a = assertThrows(SQLException.class, () -> fromPostgres.check("select x from t returning"));
        SQLException b = assertThrows(SQLException.class, () -> fromPostgres.check("select x from t returning"));
        assertTrue(a != b);
        assertEquals(a.getMessage(), b.getMessage());
    }

    @Test
    void theDeclaredDefaultSchemaIsLeftOutOnTheOtherEngines() throws SQLException {
        SqlTranslator t = new SqlTranslator(Engine.POSTGRESQL, Set.of(Engine.SQLITE, Engine.POSTGRESQL),
                DeclaredSchema.of(java.util.List.of(), Engine.POSTGRESQL), 10);
        assertEquals("select installed_rank from flyway_schema_history where note = 'public.x'",
                t.translate("SELECT \"installed_rank\" FROM \"public\".\"flyway_schema_history\" WHERE note = 'public.x'",
                        Engine.SQLITE).replace("SELECT", "select").replace("FROM", "from").replace("WHERE", "where"));
        assertEquals("select * from other.t", t.translate("select * from other.t", Engine.SQLITE));
    }

    @Test
    void aSequenceIsNotCachedOnMariadb() throws SQLException {
        assertEquals("create sequence book_seq start with 1 increment by 50 nocache",
                fromPostgres.translate("create sequence book_seq start with 1 increment by 50", Engine.MARIADB));
    }

    @Test
    void anAddedKeyIsAUniqueIndexOnSqlite() throws SQLException {
        assertEquals("CREATE UNIQUE INDEX fsh_pk ON \"fsh\" (\"installed_rank\")", fromPostgres.translate(
                "ALTER TABLE \"public\".\"fsh\" ADD CONSTRAINT \"fsh_pk\" PRIMARY KEY (\"installed_rank\")", Engine.SQLITE));
    }

    @Test
    void aMariadbUrlNamesItsDatabase() {
        assertEquals("shop", DeclaredSchema.database("jdbc:mariadb://127.0.0.1:3306/shop?user=x"));
        assertEquals(null, DeclaredSchema.database("jdbc:mariadb://127.0.0.1:3306/"));
    }
}
