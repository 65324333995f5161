package org.phalanx.requestmanager.api;

/** A database product as {@code DatabaseMetaData} names it: {@code getDatabaseProductName/Version}. */
public record DatabaseProduct(String name, String version) {
}
