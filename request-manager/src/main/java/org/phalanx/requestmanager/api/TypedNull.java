package org.phalanx.requestmanager.api;

/** A NULL parameter bound with a specific {@link java.sql.Types} code. */
public record TypedNull(int sqlType) {
}
