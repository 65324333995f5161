package org.phalanx.requestmanager.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.phalanx.requestmanager.backend.SessionSettings;

class LoggedSettingsTest {

    @Test
    void settingsTravelWithTheStatementAndComeBackIntact() {
        SessionSettings settings = SessionSettings.NONE.with("search_path", "SET search_path TO \"odd */ name\", public")
                .with("application_name", "SET application_name = 'a;b\u00e9'");
        String logged = LoggedSettings.toLog(settings, "INSERT INTO t VALUES (?)");
        assertTrue(logged.startsWith("/* phalanx:settings "), logged);
        assertEquals(1, logged.split("\\*/", -1).length - 1, "one comment end, whatever the statements hold: " + logged);
        LoggedSettings.Logged back = LoggedSettings.fromLog(logged);
        assertEquals(settings, back.settings());
        assertEquals("INSERT INTO t VALUES (?)", back.sql());
    }

    @Test
    void withoutSettingsTheTextIsTheStatement() {
        String sql = "/* a user comment */ UPDATE t SET v = 1";
        assertSame(sql, LoggedSettings.toLog(SessionSettings.NONE, sql));
        LoggedSettings.Logged back = LoggedSettings.fromLog(sql);
        assertEquals(SessionSettings.NONE, back.settings());
        assertEquals(sql, back.sql(), "an entry written before settings were logged reads as having none");
    }
}
