package org.phalanx.requestmanager.verify;

/**
 * A column as verification renders it on one replica.
 *
 * @param name  as the backend spells it
 * @param kind  how it is rendered as canonical text
 * @param scale the declared number of digits after the point of a {@link ColumnKind#DECIMAL}; -1 when none was declared
 */
public record TableColumn(String name, ColumnKind kind, int scale) {
}
