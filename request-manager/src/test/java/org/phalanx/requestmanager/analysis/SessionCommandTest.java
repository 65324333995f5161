package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.phalanx.requestmanager.analysis.SessionCommand.Assignment;

class SessionCommandTest {
    private static List<Assignment> set(String sql) {
        SessionCommand c = SessionCommand.parse(sql);
        assertTrue(c != null && c.reset().isEmpty() && !c.resetAll(), sql);
        return c.set();
    }

    @Test
    void mariadbUserVariablesSetToLiterals() {
        assertEquals(List.of(new Assignment("@v", "SET @v = 42"), new Assignment("@w", "SET @W := 'it''s'")),
                set("SET @v = 42, @W := 'it''s'"));
        SessionCommand computed = SessionCommand.parse("SET @v = NOW(), @w = 1, @x := (SELECT MAX(id) FROM t)");
        assertEquals(List.of("NOW()", "(SELECT MAX(id) FROM t)"), computed.expressions(), "computed once, by the controller");
        assertEquals(List.of(new Assignment("@v", "SET @v = '2026-11-27 05:00:00'"), new Assignment("@w", "SET @w = 1"),
                new Assignment("@x", "SET @x = 12")), computed.computedAs(List.of("2026-11-27 05:00:00", 12L)).set());
        assertNull(SessionCommand.parse("SET @v = 1, @@session.x = 2"));
    }

    @Test
    void sqliteConnectionPragmas() {
        assertEquals(List.of(new Assignment("pragma:foreign_keys", "PRAGMA foreign_keys = ON")),
                set(" PRAGMA foreign_keys = ON;"));
        assertEquals("pragma:busy_timeout", set("pragma main.busy_timeout(5000)").get(0).name());
        assertNull(SessionCommand.parse("PRAGMA foreign_keys"), "a read of the pragma");
        assertNull(SessionCommand.parse("PRAGMA user_version = 3"), "the database file's: a replicated write");
        assertNull(SessionCommand.parse("PRAGMA journal_mode = WAL"));
    }

    @Test
    void postgresqlForms() {
        assertEquals(List.of(new Assignment("search_path", "SET search_path TO s2, public")),
                set("SET search_path TO s2, public"));
        assertEquals(List.of(new Assignment("search_path", "SET search_path = \"$user\", public")),
                set("  set search_path = \"$user\", public ;"));
        assertEquals("timezone", set("SET TIME ZONE 'UTC'").get(0).name());
        assertEquals("role", set("SET ROLE app_owner").get(0).name());
        assertEquals("session_authorization", set("SET SESSION AUTHORIZATION bob").get(0).name());
        assertEquals("search_path", set("SET SCHEMA 'audit'").get(0).name());
        assertEquals("application_name", set("SET SESSION application_name = 'x'").get(0).name());
        assertEquals(List.of("search_path"), SessionCommand.parse("RESET search_path").reset());
        assertEquals(List.of("timezone"), SessionCommand.parse("SET TIME ZONE LOCAL").reset());
        assertEquals(List.of("role"), SessionCommand.parse("SET ROLE NONE").reset());
        assertEquals(List.of("client_min_messages"), SessionCommand.parse("SET client_min_messages TO DEFAULT").reset());
        assertTrue(SessionCommand.parse("RESET ALL").resetAll());
    }

    @Test
    void mariadbForms() {
        assertEquals(List.of(new Assignment("foreign_key_checks", "SET foreign_key_checks = 0"),
                        new Assignment("sql_safe_updates", "SET sql_safe_updates=1")),
                set("SET foreign_key_checks = 0, sql_safe_updates=1"));
        assertEquals("time_zone", set("SET @@session.time_zone = '+00:00'").get(0).name());
        assertEquals("sql_mode", set("SET @@sql_mode = 'ANSI_QUOTES,STRICT_ALL_TABLES'").get(0).name());
        assertEquals("names", set("SET NAMES utf8mb4 COLLATE utf8mb4_bin").get(0).name());
        assertEquals("names", set("SET CHARACTER SET utf8mb4").get(0).name());
    }

    @Test
    void parametersAreWrittenInAsLiterals() {
        assertEquals("SET foreign_key_checks=0, sql_safe_updates=1, x='it''s', y='?'",
                SessionCommand.withParameters("SET foreign_key_checks=?, sql_safe_updates=?, x=?, y='?'",
                        java.util.Arrays.asList(0, 1, "it's")));
    }

    @Test
    void setLocalIsMarkedSo() {
        SessionCommand local = SessionCommand.parse("SET LOCAL search_path = x, public");
        assertEquals(List.of(new SessionCommand.Assignment("search_path", "SET search_path = x, public")), local.set());
        assertTrue(local.local());
        assertEquals(List.of("timezone"), SessionCommand.parse("set local time zone default").reset());
        assertTrue(SessionCommand.parse("set local time zone default").local());
        assertFalse(SessionCommand.parse("SET search_path = x").local());
        assertNull(SessionCommand.parse("SET LOCAL TRANSACTION READ ONLY"));
    }

    @Test
    void notTheSessions() {
        for (String sql : List.of("SET LOCAL x = (SELECT 1)", "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE",
                "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY", "SET CONSTRAINTS ALL DEFERRED",
                "SET GLOBAL max_connections = 10", "SET @@global.sql_mode = ''",
                "SET autocommit = 0", "SET x = (SELECT max(id) FROM t)", "SET a = 1; DROP TABLE t",
                "RESET QUERY CACHE", "RESET MASTER", "SET PERSIST max_connections = 10", "SELECT 1",
                "UPDATE t SET v = 1")) {
            assertNull(SessionCommand.parse(sql), sql);
        }
    }

    @Test
    void theAnalyzerSaysSessionAndShowIsARead() {
        SqlAnalyzer analyzer = new SqlAnalyzer(100);
        assertEquals(StatementKind.SESSION, analyzer.analyze("SET search_path TO s2").kind());
        assertEquals(StatementKind.SESSION, analyzer.analyze("RESET ALL").kind());
        assertEquals(StatementKind.WRITE, analyzer.analyze("SET GLOBAL max_connections = 10").kind());
        assertEquals(StatementKind.READ, analyzer.analyze("SHOW search_path").kind());
    }
}
