package org.phalanx.testing;

import java.sql.SQLException;
import org.phalanx.requestmanager.api.Request;
import org.phalanx.requestmanager.api.Result;
import org.phalanx.requestmanager.api.Session;

/** What the request-manager tests do with a session, the way a client would. */
public final class Sessions {
    private Sessions() {
    }

    /** Runs a write and returns its update count. */
    public static long update(Session s, String sql, Object... params) throws SQLException {
        try (Result r = s.execute(Request.of(sql, params))) {
            return ((Result.UpdateCount) r).count();
        }
    }

    /** Runs a query and returns the first column of its first row. */
    public static Object value(Session s, String sql, Object... params) throws SQLException {
        try (Result r = s.execute(Request.of(sql, params))) {
            if (r instanceof Result.Cached cached) {
                return cached.rows().get(0)[0];
            }
            Result.Rows rows = (Result.Rows) r;
            if (!rows.prefix().isEmpty()) {
                return rows.prefix().get(0)[0];
            }
            rows.resultSet().next();
            return rows.resultSet().getObject(1);
        }
    }
}
