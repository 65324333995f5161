package org.phalanx.bench.cluster;

/**
 * One backend of a virtual database file; {@code driver}, {@code user}, {@code password} may be
 * null; {@code maxPending} 0 leaves the attribute out (no limit).
 */
public record BackendSpec(String name, String url, String driver, String user, String password, int poolSize,
                          int maxPending) {

    public BackendSpec(String name, String url, String driver, String user, String password, int poolSize) {
        this(name, url, driver, user, password, poolSize, 0);
    }

    public BackendSpec withMaxPending(int max) {
        return new BackendSpec(name, url, driver, user, password, poolSize, max);
    }
}
