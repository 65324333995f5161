package org.phalanx.engine;

/**
 * A text parameter whose SQL type the database infers from where it is used: JDBC's
 * {@code setObject(i, text, Types.OTHER)} and a {@code java.util.UUID}, which pgjdbc sends as
 * PostgreSQL's "unknown" type, so that the text becomes a {@code uuid}, a {@code jsonb}, an enum
 * value... Bound so on PostgreSQL backends, as a string elsewhere.
 *
 * @param text the value as text
 */
public record UntypedText(String text) {
    public UntypedText {
        if (text == null) {
            throw new IllegalArgumentException("an untyped text needs a value (null is a null parameter)");
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
