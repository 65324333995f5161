package org.phalanx.requestmanager;

/** A NULL parameter bound with a specific {@link java.sql.Types} code. */
public record TypedNull(int sqlType) {
}
