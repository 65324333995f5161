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
            Set.of(Engine.SQLITE, Engine.POSTGRESQL, Engine.MARIADB), 100);
    private final SqlTranslator fromMariadb = new SqlTranslator(Engine.MARIADB,
            Set.of(Engine.SQLITE, Engine.POSTGRESQL, Engine.MARIADB), 100);

    @Test
    void theDeclaredEngineGetsTheStatementAsWritten() throws SQLException {
        String sql = "select x from t where y = ? offset ? rows fetch first ? rows only";
        assertSame(sql, fromPostgres.translate(sql, Engine.POSTGRESQL));
    }

    @Test
    void aStatementThatNeedsNoChangeGoesAsWritten() throws SQLException {
        String sql = "SELECT p.name, COUNT(*) AS n FROM person p JOIN orders o ON o.person_id=p.id WHERE p.id > ? GROUP BY p.name";
        assertSame(sql, fromPostgres.translate(sql, Engine.SQLITE));
        assertSame(sql, fromPostgres.translate(sql, Engine.MARIADB));
    }

    @Test
    void parametersMovedByTheTranslationAreNumberedOnSqlite() throws SQLException {
        String sql = "select c.id from customer c where c.id > ? offset ? rows fetch first ? rows only";
        assertEquals("select c.id from customer c where c.id > ?1 limit ?3 offset ?2",
                fromPostgres.translate(sql, Engine.SQLITE));
        assertSame(sql, fromPostgres.translate(sql, Engine.MARIADB)); // MariaDB knows OFFSET ... FETCH
    }

    @Test
    void mariadbPaginationAndAliasedDeletesAreTranslated() throws SQLException {
        // LIMIT offset, count: the offset comes first
        assertEquals("select * from t limit ?2 offset ?1", fromMariadb.translate("select * from t limit ?, ?", Engine.SQLITE));
        assertEquals("delete from o using orders o where o.id = ?",
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
        SQLException e = assertThrows(SQLException.class, () -> fromPostgres.check("select nextval('person_seq')"));
        assertEquals("0A000", e.getSQLState());
        assertTrue(e.getMessage().contains("SQLite") && e.getMessage().contains("sequences"), e.getMessage());
        e = assertThrows(SQLException.class, () -> fromPostgres.check("insert into t (a) values (?) returning id"));
        assertTrue(e.getMessage().contains("RETURNING"), e.getMessage());
        e = assertThrows(SQLException.class, () -> fromMariadb.check("select a from t where b = @x"));
        assertTrue(e.getMessage().contains("user variables"), e.getMessage());
        e = assertThrows(SQLException.class, () -> fromMariadb.check(
                "create table t (id bigint not null, primary key (id)) engine=InnoDB"));
        assertTrue(e.getMessage().contains("table options"), e.getMessage());
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
        SQLException a = assertThrows(SQLException.class, () -> fromPostgres.check("select nextval('s')"));
        SQLException b = assertThrows(SQLException.class, () -> fromPostgres.check("select nextval('s')"));
        assertTrue(a != b);
        assertEquals(a.getMessage(), b.getMessage());
    }
}
