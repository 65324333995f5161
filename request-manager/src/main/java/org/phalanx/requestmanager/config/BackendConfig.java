package org.phalanx.requestmanager.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One backend as configured.
 *
 * @param name         unique within the virtual database
 * @param url          JDBC URL of the real database (relative SQLite paths already resolved)
 * @param driverClass  JDBC driver class to load, or null to rely on DriverManager
 * @param credentials  real login used for virtual users without their own mapping
 * @param logins       virtual user name to real login on this backend
 * @param poolSize     maximum connections per real login
 * @param weight       share of reads under weighted round robin
 * @param tables       tables declared statically in the configuration (may be empty); checked
 *                     against the backend's metadata when it is enabled
 * @param driverJar    jar holding the JDBC driver, loaded in a class loader of its own (so two
 *                     versions of one driver can serve two backends), or null for the classpath
 * @param rewrites     statement rewriting rules that apply to this backend, in order
 * @param maxPending   requests in progress beyond which auto-commit reads wait at the controller for
 *                     a backend with room (0: no limit); writes and reads in transactions always go
 */
public record BackendConfig(String name, String url, String driverClass, Credentials credentials,
                            Map<String, Credentials> logins, int poolSize, int weight, List<DeclaredTable> tables,
                            Path driverJar, List<RewriteRule> rewrites, int maxPending) {

    public BackendConfig(String name, String url, String driverClass, Credentials credentials,
                         Map<String, Credentials> logins, int poolSize, int weight, List<DeclaredTable> tables,
                         Path driverJar, List<RewriteRule> rewrites) {
        this(name, url, driverClass, credentials, logins, poolSize, weight, tables, driverJar, rewrites, 0);
    }

    public BackendConfig(String name, String url, String driverClass, Credentials credentials,
                         Map<String, Credentials> logins, int poolSize, int weight) {
        this(name, url, driverClass, credentials, logins, poolSize, weight, List.of());
    }

    public BackendConfig(String name, String url, String driverClass, Credentials credentials,
                         Map<String, Credentials> logins, int poolSize, int weight, List<DeclaredTable> tables) {
        this(name, url, driverClass, credentials, logins, poolSize, weight, tables, null, List.of());
    }

    public Credentials credentialsFor(String virtualUser) {
        return logins.getOrDefault(virtualUser, credentials);
    }
}
