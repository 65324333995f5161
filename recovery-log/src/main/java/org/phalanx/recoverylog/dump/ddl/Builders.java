package org.phalanx.recoverylog.dump.ddl;

import java.sql.Types;
import java.util.regex.Pattern;
import org.apache.ddlutils.model.Column;

/**
 * Default values as our three builders print them. DdlUtils 1.0 prints defaults verbatim: it
 * does not escape quotes inside them ({@code DEFAULT 'it's'}), drops {@code CURRENT_TIMESTAMP} on
 * timestamp columns, and writes a boolean's {@code 1}, which PostgreSQL refuses. The model holds
 * defaults in the portable form of {@link DefaultValues}; this turns them into each engine's SQL.
 */
final class Builders {
    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

    /** How an engine writes what differs between them. */
    record Dialect(String currentTimestamp, String currentDate, String currentTime, String booleanTrue,
                   String booleanFalse, boolean backslashEscapes) {
    }

    static final Dialect SQLITE = new Dialect("CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME", "1", "0", false);
    static final Dialect POSTGRESQL = new Dialect("CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME", "true", "false", false);
    static final Dialect MARIADB = new Dialect("CURRENT_TIMESTAMP(6)", "(CURRENT_DATE)", "(CURRENT_TIME)", "true", "false",
            true);

    private Builders() {
    }

    /** The SQL after {@code DEFAULT} for the column's default, or null for none (or one that cannot be written). */
    static String defaultSql(Column column, Dialect dialect) {
        String value = column.getDefaultValue();
        if (value == null) {
            return null;
        }
        switch (value) {
            case DefaultValues.CURRENT_TIMESTAMP:
                return dialect.currentTimestamp();
            case DefaultValues.CURRENT_DATE:
                return dialect.currentDate();
            case DefaultValues.CURRENT_TIME:
                return dialect.currentTime();
            default:
                break;
        }
        int type = column.getTypeCode();
        if (type == Types.BIT || type == Types.BOOLEAN) {
            String b = DefaultValues.normalize(value, type);
            return b == null ? null : b.equals("true") ? dialect.booleanTrue() : dialect.booleanFalse();
        }
        if (DefaultValues.isNumeric(type)) {
            return NUMBER.matcher(value).matches() ? value : null;
        }
        String escaped = value.replace("'", "''");
        if (dialect.backslashEscapes()) {
            escaped = escaped.replace("\\", "\\\\");
        }
        return "'" + escaped + "'";
    }
}
