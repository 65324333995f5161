package org.phalanx.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * A text parameter whose SQL type the database infers where it is used: {@code setObject(i, text,
 * Types.OTHER)} and a {@code java.util.UUID}, which PostgreSQL takes as a {@code uuid}, a
 * {@code jsonb}, an enum value... From protocol version {@link Protocol#UNTYPED_VERSION}; to an
 * older controller it goes as a plain string.
 *
 * @param text the value as text
 */
public record Untyped(String text) {
    /** The values with every untyped text as a plain string, for a controller of an older version. */
    public static List<Object> asStrings(List<Object> values) {
        List<Object> out = new ArrayList<>(values.size());
        for (Object v : values) {
            out.add(v instanceof Untyped u ? u.text() : v);
        }
        return out;
    }
}
