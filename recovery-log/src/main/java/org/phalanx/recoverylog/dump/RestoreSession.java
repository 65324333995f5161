package org.phalanx.recoverylog.dump;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.phalanx.engine.Engine;

/** Per-engine session settings a restore needs, put back afterwards. */
final class RestoreSession implements AutoCloseable {
    private final Engine engine;
    private final Connection c;
    private String sqlMode;
    private String foreignKeyChecks;

    private RestoreSession(Engine engine, Connection c) {
        this.engine = engine;
        this.c = c;
    }

    static RestoreSession open(Engine engine, Connection c) throws SQLException {
        RestoreSession s = new RestoreSession(engine, c);
        if (engine == Engine.MARIADB) {
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT @@SESSION.sql_mode, @@SESSION.foreign_key_checks")) {
                rs.next();
                s.sqlMode = rs.getString(1);
                s.foreignKeyChecks = rs.getString(2);
            }
            try (Statement st = c.createStatement()) {
                // an explicit 0 in an AUTO_INCREMENT column stays 0 instead of drawing a new value
                st.execute("SET SESSION sql_mode = CONCAT_WS(',', NULLIF(@@SESSION.sql_mode, ''), 'NO_AUTO_VALUE_ON_ZERO')");
                st.execute("SET SESSION foreign_key_checks = 0"); // keys are added after the data
            }
        }
        return s;
    }

    void deferForeignKeys() throws SQLException {
        if (engine == Engine.SQLITE) {
            try (Statement st = c.createStatement()) {
                st.execute("PRAGMA defer_foreign_keys = ON"); // checked at commit, whatever the table order
            }
        }
    }

    @Override
    public void close() throws SQLException {
        if (engine == Engine.MARIADB) {
            try (PreparedStatement st = c.prepareStatement("SET SESSION sql_mode = ?")) {
                st.setString(1, sqlMode);
                st.execute();
            }
            try (Statement st = c.createStatement()) {
                st.execute("SET SESSION foreign_key_checks = " + ("0".equals(foreignKeyChecks) ? 0 : 1));
            }
        }
    }
}
