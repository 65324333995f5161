package org.phalanx.controller.net;

import org.phalanx.engine.SqlState;
import org.phalanx.protocol.ErrorReply;

import java.sql.SQLException;

/** ERROR replies for what went wrong serving a request. */
final class ErrorReplies {
    private ErrorReplies() {
    }

    /** The client rethrows it as the same SQLException: state, vendor code, message. */
    static ErrorReply of(SQLException e) {
        String state = e.getSQLState() == null ? SqlState.GENERAL_ERROR.code() : e.getSQLState();
        String message = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
        return new ErrorReply(state, e.getErrorCode(), message);
    }

    static ErrorReply internal(RuntimeException e) {
        return new ErrorReply(SqlState.INTERNAL_ERROR.code(), 0, "internal error in the Phalanx controller: " + e);
    }
}
