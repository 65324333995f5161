package org.phalanx.requestmanager.backend;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.List;
import org.phalanx.engine.UntypedText;
import org.phalanx.requestmanager.api.TypedNull;

/** Binds wire-decoded parameter values with the setter each backend driver understands best. */
public final class ParameterBinder {
    private ParameterBinder() {
    }

    /**
     * The type a NULL is bound with. pgjdbc binds a BLOB or CLOB NULL as a large-object oid, which
     * a bytea or text column refuses (while SQLite and MariaDB accept it): such NULLs go as the
     * plain binary and text types every engine takes.
     */
    private static int nullType(int sqlType) {
        return switch (sqlType) {
            case Types.BLOB -> Types.VARBINARY;
            case Types.CLOB, Types.NCLOB -> Types.VARCHAR;
            default -> sqlType;
        };
    }

    /** Whether the statement goes to PostgreSQL (or a controller over it): asked for untyped text only. */
    private static boolean isPostgres(PreparedStatement ps) throws SQLException {
        return "PostgreSQL".equalsIgnoreCase(ps.getConnection().getMetaData().getDatabaseProductName());
    }

    /** PostgreSQL and MariaDB take a LocalTime with its microseconds (SQLite's driver stores a Time as it always did). */
    private static boolean keepsFractionsOfTime(PreparedStatement ps) throws SQLException {
        String product = ps.getConnection().getMetaData().getDatabaseProductName();
        return "PostgreSQL".equalsIgnoreCase(product) || "MariaDB".equalsIgnoreCase(product)
                || "MySQL".equalsIgnoreCase(product);
    }

    public static void bindAll(PreparedStatement ps, List<Object> params) throws SQLException {
        for (int i = 0; i < params.size(); i++) {
            bind(ps, i + 1, params.get(i));
        }
    }

    public static void bind(PreparedStatement ps, int index, Object v) throws SQLException {
        if (v == null) {
            ps.setNull(index, Types.NULL);
        } else if (v instanceof TypedNull n) {
            ps.setNull(index, nullType(n.sqlType()));
        } else if (v instanceof String s) {
            ps.setString(index, s);
        } else if (v instanceof Integer i) {
            ps.setInt(index, i);
        } else if (v instanceof Long l) {
            ps.setLong(index, l);
        } else if (v instanceof Double d) {
            ps.setDouble(index, d);
        } else if (v instanceof BigDecimal d) {
            ps.setBigDecimal(index, d);
        } else if (v instanceof Boolean b) {
            ps.setBoolean(index, b);
        } else if (v instanceof byte[] b) {
            ps.setBytes(index, b);
        } else if (v instanceof Short s) {
            ps.setShort(index, s);
        } else if (v instanceof Byte b) {
            ps.setByte(index, b);
        } else if (v instanceof Float f) {
            ps.setFloat(index, f);
        } else if (v instanceof LocalDate d) {
            ps.setDate(index, java.sql.Date.valueOf(d));
        } else if (v instanceof LocalTime t) {
            if (t.getNano() != 0 && keepsFractionsOfTime(ps)) {
                ps.setObject(index, t); // java.sql.Time has no fraction of a second
            } else {
                ps.setTime(index, java.sql.Time.valueOf(t));
            }
        } else if (v instanceof LocalDateTime t) {
            if (t.getYear() >= 1 && t.getYear() <= 9999 && isPostgres(ps)) {
                // text of unknown type, as pgjdbc sends a Timestamp but without the controller's offset: a
                // timestamptz takes it in the session's TimeZone, the client's (session.ClientTimeZone)
                ps.setObject(index, t.toLocalDate() + " " + t.toLocalTime(), Types.OTHER);
            } else {
                ps.setTimestamp(index, Timestamp.valueOf(t));
            }
        } else if (v instanceof UntypedText u) {
            if (isPostgres(ps)) {
                ps.setObject(index, u.text(), Types.OTHER); // PostgreSQL's unknown type: a uuid, a jsonb... as the column says
            } else {
                ps.setString(index, u.text());
            }
        } else if (v instanceof OffsetDateTime t) {
            try {
                ps.setObject(index, t);
            } catch (SQLException e) {
                ps.setTimestamp(index, Timestamp.from(t.toInstant()));
            }
        } else {
            ps.setObject(index, v);
        }
    }
}
