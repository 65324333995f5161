package org.phalanx.requestmanager.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One backend as configured. Build one with {@link #builder(String, String)}, which starts from
 * the defaults; the constructor refuses values that cannot work.
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
 * @param limits       when a hung or far too slow backend is taken out of service
 */
public record BackendConfig(String name, String url, String driverClass, Credentials credentials,
                            Map<String, Credentials> logins, int poolSize, int weight, List<DeclaredTable> tables,
                            Path driverJar, List<RewriteRule> rewrites, int maxPending, HangLimits limits) {

    public static final int DEFAULT_POOL_SIZE = 10;
    public static final int DEFAULT_WEIGHT = 1;

    public BackendConfig {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a backend needs a name");
        }
        Objects.requireNonNull(url, "url of backend " + name);
        Objects.requireNonNull(credentials, "credentials of backend " + name);
        Objects.requireNonNull(limits, "limits of backend " + name);
        if (poolSize < 1) {
            throw new IllegalArgumentException("poolSize of backend " + name + " must be at least 1, not " + poolSize);
        }
        if (weight < 0 || maxPending < 0) {
            throw new IllegalArgumentException("weight and maxPending of backend " + name
                    + " cannot be negative: " + weight + ", " + maxPending);
        }
        logins = Map.copyOf(logins);
        tables = List.copyOf(tables);
        rewrites = List.copyOf(rewrites);
    }

    /** A builder for the backend at this JDBC URL: no login, 10 connections, weight 1, nothing declared. */
    public static Builder builder(String name, String url) {
        return new Builder(name, url);
    }

    /** A builder holding this backend's configuration, to change some of it. */
    public Builder toBuilder() {
        return new Builder(name, url).driverClass(driverClass).credentials(credentials).logins(logins)
                .poolSize(poolSize).weight(weight).tables(tables).driverJar(driverJar).rewrites(rewrites)
                .maxPending(maxPending).limits(limits);
    }

    /** This backend's configuration with another JDBC URL. */
    public BackendConfig withUrl(String otherUrl) {
        return new BackendConfig(name, otherUrl, driverClass, credentials, logins, poolSize, weight, tables, driverJar,
                rewrites, maxPending, limits);
    }

    public Credentials credentialsFor(String virtualUser) {
        return logins.getOrDefault(virtualUser, credentials);
    }

    /** Collects one backend's settings; {@link #build()} checks them. */
    public static final class Builder {
        private final String name;
        private final String url;
        private String driverClass;
        private Credentials credentials = new Credentials(null, null);
        private Map<String, Credentials> logins = Map.of();
        private int poolSize = DEFAULT_POOL_SIZE;
        private int weight = DEFAULT_WEIGHT;
        private List<DeclaredTable> tables = List.of();
        private Path driverJar;
        private List<RewriteRule> rewrites = List.of();
        private int maxPending;
        private HangLimits limits = HangLimits.DEFAULTS;

        private Builder(String name, String url) {
            this.name = name;
            this.url = url;
        }

        public Builder driverClass(String driverClass) {
            this.driverClass = driverClass;
            return this;
        }

        public Builder credentials(Credentials credentials) {
            this.credentials = credentials;
            return this;
        }

        /** The login used for every virtual user without one of its own. */
        public Builder login(String user, String password) {
            return credentials(new Credentials(user, password));
        }

        public Builder logins(Map<String, Credentials> logins) {
            this.logins = logins;
            return this;
        }

        public Builder poolSize(int poolSize) {
            this.poolSize = poolSize;
            return this;
        }

        public Builder weight(int weight) {
            this.weight = weight;
            return this;
        }

        public Builder tables(List<DeclaredTable> tables) {
            this.tables = tables;
            return this;
        }

        public Builder driverJar(Path driverJar) {
            this.driverJar = driverJar;
            return this;
        }

        public Builder rewrites(List<RewriteRule> rewrites) {
            this.rewrites = rewrites;
            return this;
        }

        public Builder maxPending(int maxPending) {
            this.maxPending = maxPending;
            return this;
        }

        public Builder limits(HangLimits limits) {
            this.limits = limits;
            return this;
        }

        /** @throws IllegalArgumentException or NullPointerException naming the first value that cannot work */
        public BackendConfig build() {
            return new BackendConfig(name, url, driverClass, credentials, logins, poolSize, weight, tables, driverJar,
                    rewrites, maxPending, limits);
        }
    }
}
