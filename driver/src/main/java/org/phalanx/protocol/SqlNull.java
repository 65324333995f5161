package org.phalanx.protocol;

/** A SQL NULL on the wire, carrying the {@link java.sql.Types} code it was set or read with. */
public record SqlNull(int sqlType) {
}
