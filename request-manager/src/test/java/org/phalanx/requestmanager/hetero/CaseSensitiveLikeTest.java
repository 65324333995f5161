package org.phalanx.requestmanager.hetero;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.config.BackendConfig;

class CaseSensitiveLikeTest {

    @Test
    void sqliteBackendsOfAPostgresqlOrMariadbDialectTellCaseApart() {
        BackendConfig lite = BackendConfig.builder("lite", "jdbc:sqlite:a.db").build();
        assertEquals("jdbc:sqlite:a.db?case_sensitive_like=true", CaseSensitiveLike.forDialect(lite, Engine.POSTGRESQL).url());
        assertEquals("jdbc:sqlite:a.db?journal_mode=WAL&case_sensitive_like=true", CaseSensitiveLike.forDialect(
                BackendConfig.builder("lite", "jdbc:sqlite:a.db?journal_mode=WAL").build(), Engine.MARIADB).url());
        assertEquals(lite, CaseSensitiveLike.forDialect(lite, Engine.SQLITE), "SQLite's own LIKE");
        assertEquals(lite, CaseSensitiveLike.forDialect(lite, null), "one engine: its own LIKE");
        BackendConfig pg = BackendConfig.builder("pg", "jdbc:postgresql://h/db").build();
        assertEquals(pg, CaseSensitiveLike.forDialect(pg, Engine.POSTGRESQL));
        BackendConfig chosen = BackendConfig.builder("lite", "jdbc:sqlite:a.db?case_sensitive_like=false").build();
        assertEquals(chosen, CaseSensitiveLike.forDialect(chosen, Engine.POSTGRESQL), "the URL's own choice stands");
    }
}
