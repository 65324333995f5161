package org.phalanx.requestmanager.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.phalanx.engine.Engine;

class SessionSettingsTest {

    @Test
    void aParameterOfOneEngineIsSetOnThatEngineOnly() throws Exception {
        SessionSettings s = SessionSettings.NONE.with("cache_size", "PRAGMA cache_size = 1234")
                .with("client_min_messages", "SET client_min_messages = WARNING", Engine.POSTGRESQL);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            s.apply(c, Engine.SQLITE); // the PostgreSQL one would fail here
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA cache_size")) {
                rs.next();
                assertEquals(1234, rs.getInt(1));
            }
        }
        assertEquals("SET client_min_messages = WARNING", s.statement("client_min_messages"));
    }

    @Test
    void namesOfOneEngineKeepThatThroughTheLogAndAreResetByName() {
        SessionSettings s = SessionSettings.NONE.with("search_path", "SET search_path TO app", Engine.POSTGRESQL);
        assertEquals(s, SessionSettings.decode(s.encode()));
        assertEquals("SET search_path TO other", s.with("search_path", "SET search_path TO other")
                .statement("search_path"), "set again, for every engine: one value");
        assertNull(s.without(List.of("search_path")).statement("search_path"));
        assertEquals(SessionSettings.NONE.only(List.of()), s.only(List.of("role")));
    }
}
