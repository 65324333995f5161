package org.phalanx.recoverylog;

/**
 * A NULL bound with a known SQL type ({@code setNull(index, sqlType)}): replay must bind it
 * the same way, because some drivers refuse an untyped NULL where the column type matters.
 *
 * @param sqlType a {@link java.sql.Types} code
 */
public record LogNull(int sqlType) {
}
