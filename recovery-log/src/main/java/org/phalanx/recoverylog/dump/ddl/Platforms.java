package org.phalanx.recoverylog.dump.ddl;

import org.apache.ddlutils.Platform;
import org.apache.ddlutils.PlatformFactory;

/**
 * Our DdlUtils platforms, registered with {@link PlatformFactory} under their names. DdlUtils
 * cannot pick a platform for SQLite or for {@code jdbc:mariadb:} URLs by itself
 * ({@code createNewPlatformInstance(dataSource)} fails), so callers always name one.
 */
public final class Platforms {
    private static boolean registered;

    private Platforms() {
    }

    /** Registers {@link SqlitePlatform}, {@link PortablePostgreSqlPlatform} and {@link PortableMySqlPlatform}. */
    public static synchronized void register() {
        if (!registered) {
            PlatformFactory.registerPlatform(SqlitePlatform.NAME, SqlitePlatform.class);
            PlatformFactory.registerPlatform(PortablePostgreSqlPlatform.NAME, PortablePostgreSqlPlatform.class);
            PlatformFactory.registerPlatform(PortableMySqlPlatform.NAME, PortableMySqlPlatform.class);
            registered = true;
        }
    }

    /**
     * A fresh platform instance by name, with what restores need switched on: delimited
     * identifiers (reserved words and mixed case survive), identity override (explicit values in
     * identity columns are kept, never renumbered), no SQL comments.
     */
    public static Platform create(String name) {
        register();
        Platform platform = PlatformFactory.createNewPlatformInstance(name);
        platform.setDelimitedIdentifierModeOn(true);
        platform.setIdentityOverrideOn(true);
        platform.setSqlCommentsOn(false);
        return platform;
    }
}
