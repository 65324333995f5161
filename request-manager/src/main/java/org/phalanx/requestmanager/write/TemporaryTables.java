package org.phalanx.requestmanager.write;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.regex.Pattern;
import org.phalanx.engine.SqlState;

/**
 * Temporary tables are refused for now, with a clear error: one would be created on pooled
 * backend connections that other sessions reuse (and see it), while the session's next statements
 * run on other connections (and do not). Serving them needs the session's statements pinned to
 * connections of its own; until then a regular table, dropped by the application, does the job.
 */
final class TemporaryTables {
    /** {@code CREATE [GLOBAL|LOCAL] TEMP[ORARY] TABLE}, PostgreSQL's {@code SELECT ... INTO TEMP}, after leading comments. */
    private static final Pattern TEMPORARY = Pattern.compile(
            "(?is)^(?:\\s|--[^\\n]*\\n|/\\*.*?\\*/)*(?:create\\s+(?:(?:global|local)\\s+)?temp(?:orary)?\\s+table"
                    + "|select\\b.*\\binto\\s+(?:temp|temporary)\\s)");

    private TemporaryTables() {
    }

    static void refuse(String sql) throws SQLException {
        if (TEMPORARY.matcher(sql).find()) {
            throw new SQLFeatureNotSupportedException("temporary tables are not supported by this virtual database yet:"
                    + " a temporary table would live on pooled backend connections shared with other sessions; use a"
                    + " regular table (docs/jdbc-unsupported.md)", SqlState.FEATURE_NOT_SUPPORTED.code());
        }
    }
}
