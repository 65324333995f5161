package org.phalanx.requestmanager.verify;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import org.phalanx.engine.Engine;

/**
 * The SQL that renders a row as canonical text, and hashes it, inside each engine: equal rows give
 * equal text on SQLite, PostgreSQL and MariaDB for the portable {@link ColumnKind}s.
 *
 * <p>A field is {@code <length>:<text>} (length in characters), or {@code -} for NULL, so NULL
 * differs from the empty string ({@code 0:}) and no value can imitate a separator; fields are
 * joined with {@code |} in the column order of the reference replica. A row's hash is the first
 * 8 hex digits of the MD5 of its text (UTF-8), read as an unsigned 32-bit number: PostgreSQL and
 * MariaDB compute it with their own {@code md5}, SQLite with {@link SqliteRowHash}, a Java function
 * registered on the connection that runs inside the embedded engine.
 */
public final class CanonicalRow {
    /** The SQL function SQLite calls for a row's hash (see {@link SqliteRowHash}). */
    static final String SQLITE_HASH_FUNCTION = "phalanx_row_hash";

    private CanonicalRow() {
    }

    /** The canonical text of one column's value, NULL when it is NULL ({@code column} is quoted already). */
    static String valueText(Engine engine, TableColumn c, String column) {
        return switch (engine) {
            case POSTGRESQL -> switch (c.kind()) {
                case DECIMAL -> c.scale() >= 0 ? "CAST(ROUND(" + column + ", " + c.scale() + ") AS TEXT)"
                        : "CAST(" + column + " AS TEXT)";
                case BOOLEAN -> "CASE WHEN " + column + " THEN '1' WHEN NOT " + column + " THEN '0' END";
                case BINARY -> "encode(" + column + ", 'hex')";
                default -> "CAST(" + column + " AS TEXT)";
            };
            case MARIADB -> switch (c.kind()) {
                case DECIMAL -> c.scale() >= 0 ? "CAST(ROUND(" + column + ", " + c.scale() + ") AS CHAR)"
                        : "CAST(" + column + " AS CHAR)";
                // + 0: tinyint(1) and bit(1) both as 1 or 0
                case BOOLEAN -> "CAST(" + column + " + 0 AS CHAR)";
                case BINARY -> "LOWER(HEX(" + column + "))";
                default -> "CAST(" + column + " AS CHAR)";
            };
            default -> switch (c.kind()) {
                // SQLite stores a NUMERIC(p,s) as an integer or a double: printed with the declared scale
                case DECIMAL -> c.scale() >= 0 ? "printf('%." + c.scale() + "f', " + column + ")"
                        : "CAST(" + column + " AS TEXT)";
                case BINARY -> "lower(hex(" + column + "))";
                default -> "CAST(" + column + " AS TEXT)";
            };
        };
    }

    /** One field of the row text: {@code <length>:<text>}, or {@code -} for NULL. */
    static String field(Engine engine, TableColumn c, String column) {
        String text = valueText(engine, c, column);
        String present = switch (engine) {
            case POSTGRESQL -> "CAST(char_length(" + text + ") AS TEXT) || ':' || " + text;
            case MARIADB -> "CONCAT(CHAR_LENGTH(" + text + "), ':', " + text + ")";
            default -> "length(" + text + ") || ':' || " + text;
        };
        return "CASE WHEN " + column + " IS NULL THEN '-' ELSE " + present + " END";
    }

    /** The SQL of the row's canonical text. */
    static String rowText(Engine engine, TableShape shape, String quote) {
        List<String> fields = new ArrayList<>();
        for (TableColumn c : shape.columns()) {
            fields.add(field(engine, c, quoted(quote, c.name())));
        }
        if (engine == Engine.MARIADB) {
            return "CONCAT_WS('|', " + String.join(", ", fields) + ")";
        }
        return String.join(" || '|' || ", fields);
    }

    /** The SQL of the row's hash: an unsigned 32-bit number. */
    static String rowHash(Engine engine, TableShape shape, String quote) {
        String text = rowText(engine, shape, quote);
        return switch (engine) {
            case POSTGRESQL -> "CAST(CAST('x' || substr(md5(" + text + "), 1, 8) AS bit(32)) AS bigint)";
            case MARIADB -> "CAST(CONV(SUBSTRING(MD5(" + text + "), 1, 8), 16, 10) AS UNSIGNED)";
            default -> SQLITE_HASH_FUNCTION + "(" + text + ")";
        };
    }

    /** An identifier in the backend's quotes (doubled inside). */
    static String quoted(String quote, String name) {
        if (quote == null || quote.isBlank()) {
            return name;
        }
        return quote + name.replace(quote, quote + quote) + quote;
    }

    /** The hash of a canonical row text, as the engines compute it: MD5's first 4 bytes, unsigned. */
    public static long hashOf(String rowText) {
        byte[] md5 = md5().digest(rowText.getBytes(StandardCharsets.UTF_8));
        return ((md5[0] & 0xffL) << 24) | ((md5[1] & 0xffL) << 16) | ((md5[2] & 0xffL) << 8) | (md5[3] & 0xffL);
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has MD5", e);
        }
    }
}
