package org.phalanx.requestmanager.hetero;

import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.config.BackendConfig;

/**
 * PostgreSQL's LIKE tells upper from lower case, and so does MariaDB's on the binary collation
 * portable DDL gives its tables; SQLite's does not (for ASCII letters): a SQLite backend of a
 * virtual database speaking PostgreSQL or MariaDB gets {@code case_sensitive_like}, so that
 * {@code name LIKE 'a%'} finds and changes the same rows on every replica.
 */
public final class CaseSensitiveLike {
    private static final String PRAGMA = "case_sensitive_like";

    private CaseSensitiveLike() {
    }

    /** The backend's configuration, with the pragma in its URL where the declared dialect needs it. */
    public static BackendConfig forDialect(BackendConfig backend, Engine declared) {
        if (declared == null || declared == Engine.SQLITE || Engine.ofUrl(backend.url()) != Engine.SQLITE
                || backend.url().contains(PRAGMA + "=")) {
            return backend;
        }
        return backend.withUrl(backend.url() + (backend.url().contains("?") ? "&" : "?") + PRAGMA + "=true");
    }
}
