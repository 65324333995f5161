package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;

import org.junit.jupiter.api.Test;
import org.phalanx.protocol.ErrorReply;

class SqlExceptionsTest {

    @Test
    void theSqlStateClassPicksTheSubclass() {
        assertSame(SQLIntegrityConstraintViolationException.class, SqlExceptions.create("m", "23505").getClass());
        assertSame(SQLTransactionRollbackException.class, SqlExceptions.create("m", "40001").getClass());
        assertSame(SQLInvalidAuthorizationSpecException.class, SqlExceptions.create("m", "28000").getClass());
        assertSame(SQLSyntaxErrorException.class, SqlExceptions.create("m", "42P01").getClass());
        assertSame(SQLNonTransientConnectionException.class, SqlExceptions.create("m", "08006").getClass());
        assertSame(SQLDataException.class, SqlExceptions.create("m", "22003").getClass());
        assertSame(SQLFeatureNotSupportedException.class, SqlExceptions.create("m", "0A000").getClass());
        assertSame(SQLTimeoutException.class, SqlExceptions.create("m", "HYT00").getClass());
        assertSame(SQLException.class, SqlExceptions.create("m", "HY000").getClass());
        assertSame(SQLException.class, SqlExceptions.create("m", null).getClass());
    }

    @Test
    void anErrorReplyKeepsStateCodeAndMessage() {
        SQLException e = SqlExceptions.fromReply(new ErrorReply("23503", 1452, "foreign key violated"));
        assertEquals("23503", e.getSQLState());
        assertEquals(1452, e.getErrorCode());
        assertEquals("foreign key violated", e.getMessage());
    }
}
