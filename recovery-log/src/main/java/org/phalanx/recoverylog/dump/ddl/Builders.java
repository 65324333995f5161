package org.phalanx.recoverylog.dump.ddl;

import java.sql.Types;
import org.apache.ddlutils.model.Column;

/** What our three SQL builders share: printing the portable default values of {@link DefaultValues}. */
final class Builders {
    private Builders() {
    }

    /** The SQL for a column's default, or null to let DdlUtils print it (a plain literal). */
    static String currentTimeDefault(Column column, String timestampFunction) {
        String value = column.getDefaultValue();
        if (DefaultValues.CURRENT_TIMESTAMP.equals(value)) {
            return timestampFunction;
        }
        if (DefaultValues.CURRENT_DATE.equals(value) || DefaultValues.CURRENT_TIME.equals(value)) {
            return value;
        }
        return null;
    }

    static boolean isBoolean(Column column) {
        return column.getTypeCode() == Types.BIT || column.getTypeCode() == Types.BOOLEAN;
    }
}
