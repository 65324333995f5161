package org.phalanx.requestmanager.analysis;

/**
 * One {@code column = value} equality a statement is restricted by: the value is either a
 * literal found in the SQL text or the statement's parameter number {@code parameter} (1-based),
 * known only at execution.
 */
public record KeyValue(String column, Object literal, int parameter) {

    public static KeyValue literal(String column, Object value) {
        return new KeyValue(column, value, 0);
    }

    public static KeyValue parameter(String column, int index) {
        return new KeyValue(column, null, index);
    }

    public boolean isParameter() {
        return parameter > 0;
    }
}
