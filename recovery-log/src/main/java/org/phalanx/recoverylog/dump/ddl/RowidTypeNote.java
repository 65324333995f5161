package org.phalanx.recoverylog.dump.ddl;

import java.sql.Types;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The portable type of a SQLite rowid key. A single-column integer primary key must be declared
 * exactly {@code INTEGER} to be the rowid (and to autoincrement), so a BIGINT or SMALLINT key
 * would come back from SQLite as INTEGER, and a later dump would carry INTEGER to engines where
 * that is 32 bits. The builder writes the real type as a comment after the declared type
 * ({@code "id" INTEGER /* phalanx: BIGINT *}{@code / NOT NULL ...}); SQLite keeps a table's
 * CREATE text verbatim in {@code sqlite_schema}, comments included, and ignores the comment
 * otherwise, so the model reader finds the type there.
 */
public final class RowidTypeNote {
    private static final Map<Integer, String> NAMES = Map.of(Types.BIGINT, "BIGINT", Types.SMALLINT, "SMALLINT",
            Types.TINYINT, "TINYINT");
    private static final Map<String, Integer> CODES = Map.of("BIGINT", Types.BIGINT, "SMALLINT", Types.SMALLINT,
            "TINYINT", Types.TINYINT);

    private RowidTypeNote() {
    }

    /** The comment to write after {@code INTEGER} for a key of this type, or "" for a plain INTEGER key. */
    public static String of(int typeCode) {
        String name = NAMES.get(typeCode);
        return name == null ? "" : " /* phalanx: " + name + " */";
    }

    /**
     * The type the note in a table's CREATE text gives its rowid key {@code column}, or null if it
     * has none (the key was declared INTEGER by whoever created the table).
     */
    public static Integer find(String createSql, String column) {
        if (createSql == null) {
            return null;
        }
        String name = "(?:\"" + Pattern.quote(column.replace("\"", "\"\"")) + "\"|`" + Pattern.quote(column)
                + "`|\\[" + Pattern.quote(column) + "]|" + Pattern.quote(column) + ")";
        Matcher m = Pattern.compile("(?:^|[\\s,(])" + name + "\\s+INTEGER\\s*/\\*\\s*phalanx:\\s*(\\w+)\\s*\\*/",
                Pattern.CASE_INSENSITIVE).matcher(createSql);
        return m.find() ? CODES.get(m.group(1).toUpperCase(Locale.ROOT)) : null;
    }
}
