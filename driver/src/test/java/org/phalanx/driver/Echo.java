package org.phalanx.driver;

import java.math.BigDecimal;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import org.phalanx.protocol.ColumnInfo;
import org.phalanx.protocol.Execute;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.protocol.SqlNull;

/** Answers EXECUTE with one row holding the statement's parameters as sent (columns p1..pn). */
final class Echo extends FakeServer.Behaviour {

    @Override
    MessageWriter execute(Execute e, FakeServer.Session s) {
        List<ColumnInfo> columns = new ArrayList<>();
        for (int i = 0; i < e.params().size(); i++) {
            Object v = e.params().get(i);
            columns.add(ColumnInfo.simple("p" + (i + 1), jdbcType(v), v.getClass().getSimpleName()));
        }
        return s.result(columns, List.<Object[]>of(e.params().toArray()).iterator(), e.fetchSize(), true);
    }

    static int jdbcType(Object v) {
        if (v instanceof SqlNull n) {
            return n.sqlType();
        } else if (v instanceof String) {
            return Types.VARCHAR;
        } else if (v instanceof Integer) {
            return Types.INTEGER;
        } else if (v instanceof Long) {
            return Types.BIGINT;
        } else if (v instanceof Short) {
            return Types.SMALLINT;
        } else if (v instanceof Byte) {
            return Types.TINYINT;
        } else if (v instanceof Boolean) {
            return Types.BOOLEAN;
        } else if (v instanceof Double) {
            return Types.DOUBLE;
        } else if (v instanceof Float) {
            return Types.REAL;
        } else if (v instanceof BigDecimal) {
            return Types.DECIMAL;
        } else if (v instanceof byte[]) {
            return Types.VARBINARY;
        } else if (v instanceof LocalDate) {
            return Types.DATE;
        } else if (v instanceof LocalTime) {
            return Types.TIME;
        } else if (v instanceof LocalDateTime) {
            return Types.TIMESTAMP;
        } else if (v instanceof OffsetDateTime) {
            return Types.TIMESTAMP_WITH_TIMEZONE;
        }
        return Types.OTHER;
    }
}
