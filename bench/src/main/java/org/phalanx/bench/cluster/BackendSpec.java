package org.phalanx.bench.cluster;

/** One backend of a virtual database file; {@code driver}, {@code user}, {@code password} may be null. */
public record BackendSpec(String name, String url, String driver, String user, String password, int poolSize) {
}
