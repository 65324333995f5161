package org.phalanx.driver;

import java.io.IOException;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;

import org.phalanx.protocol.ErrorReply;

/** Builds the SQLException subclass an application expects from a SQLState, and the driver's own errors. */
final class SqlExceptions {
    // The driver's own SQLStates, not phalanx-engine's SqlState: the driver jar is what applications
    // put on their classpath, and it stays one jar with no dependency.
    static final String CONNECTION_FAILED = "08001";
    static final String CONNECTION_CLOSED = "08003";
    static final String CONNECTION_BROKEN = "08006";
    static final String OBJECT_CLOSED = "HY010";
    static final String INVALID_CURSOR_STATE = "24000";
    static final String INVALID_TRANSACTION_STATE = "25000";
    static final String ACTIVE_SQL_TRANSACTION = "25001";
    static final String NO_ACTIVE_SQL_TRANSACTION = "25P01";
    static final String PARAMETER_NOT_SET = "07001";
    static final String INVALID_DESCRIPTOR_INDEX = "07009";
    static final String INVALID_CAST = "22018";
    static final String INVALID_TEXT_REPRESENTATION = "22P02";
    static final String OUT_OF_RANGE = "22003";
    static final String INVALID_ARGUMENT = "HY024";
    static final String NOT_SUPPORTED = "0A000";
    static final String LIMIT_EXCEEDED = "54000";
    static final String TOO_MANY_RESULT_SETS = "0100E";
    static final String NO_DATA = "02000";
    static final String COLUMN_NOT_FOUND = "42S22";
    static final String GENERAL_ERROR = "HY000";

    private SqlExceptions() {
    }

    /** The exception for a backend error relayed by the controller. */
    static SQLException fromReply(ErrorReply e) {
        return create(e.message(), e.sqlState(), e.vendorCode(), null);
    }

    /** Picks the subclass by SQLState class, so callers can catch e.g. constraint violations by type. */
    static SQLException create(String message, String sqlState, int vendorCode, Throwable cause) {
        String cls = sqlState == null || sqlState.length() < 2 ? "" : sqlState.substring(0, 2);
        SQLException e = switch (cls) {
            case "08" -> new SQLNonTransientConnectionException(message, sqlState, vendorCode);
            case "0A" -> new SQLFeatureNotSupportedException(message, sqlState, vendorCode);
            case "22" -> new SQLDataException(message, sqlState, vendorCode);
            case "23" -> new SQLIntegrityConstraintViolationException(message, sqlState, vendorCode);
            case "28" -> new SQLInvalidAuthorizationSpecException(message, sqlState, vendorCode);
            case "40" -> new SQLTransactionRollbackException(message, sqlState, vendorCode);
            case "42" -> new SQLSyntaxErrorException(message, sqlState, vendorCode);
            case "HY" -> sqlState.startsWith("HYT")
                    ? new SQLTimeoutException(message, sqlState, vendorCode)
                    : new SQLException(message, sqlState, vendorCode);
            default -> new SQLException(message, sqlState, vendorCode);
        };
        if (cause != null) {
            e.initCause(cause);
        }
        return e;
    }

    static SQLException create(String message, String sqlState) {
        return create(message, sqlState, 0, null);
    }

    static SQLException broken(IOException cause) {
        return create("connection to the controller is broken: " + cause.getMessage(), CONNECTION_BROKEN, 0, cause);
    }

    static SQLException connectionClosed() {
        return create("connection is closed", CONNECTION_CLOSED);
    }

    static SQLException closed(String what) {
        return create(what + " is closed", OBJECT_CLOSED);
    }

    static SQLFeatureNotSupportedException notSupported(String feature) {
        return new SQLFeatureNotSupportedException(feature + " is not supported by the Phalanx driver", NOT_SUPPORTED);
    }

    static SQLException cannotConvert(Object value, String target) {
        String shown = value instanceof byte[] b ? "byte[" + b.length + "]" : String.valueOf(value);
        if (shown.length() > 60) {
            shown = shown.substring(0, 57) + "...";
        }
        return create("cannot convert " + value.getClass().getSimpleName() + " value '" + shown + "' to " + target,
                INVALID_CAST);
    }

    /** Shared unwrap logic for every java.sql.Wrapper in the driver. */
    static <T> T unwrap(Object self, Class<T> iface) throws SQLException {
        if (iface.isInstance(self)) {
            return iface.cast(self);
        }
        throw create(self.getClass().getSimpleName() + " does not wrap " + iface.getName(), INVALID_ARGUMENT);
    }
}
