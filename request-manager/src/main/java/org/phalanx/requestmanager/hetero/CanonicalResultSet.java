package org.phalanx.requestmanager.hetero;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import org.phalanx.engine.Engine;
import org.phalanx.engine.SqlState;

/**
 * A backend's result seen through the canonical column types of {@link CanonicalColumns}: its
 * metadata is the canonical one, so the row reader picks the same getter whichever engine
 * answered, and the few getters whose values differ between engines are corrected here: decimals
 * get their column's scale (SQLite keeps 12.5 for a DECIMAL(10,2) 12.50), SQLite's date/time text
 * is parsed (its driver reads only one format), timestamps are cut to milliseconds (what
 * sqlite-jdbc stores for a bound timestamp). Everything else goes straight to the backend's result.
 */
public final class CanonicalResultSet implements InvocationHandler {
    private final ResultSet backend;
    private final Engine engine;
    private final ResultSetMetaData canonical;

    private CanonicalResultSet(ResultSet backend, Engine engine, ResultSetMetaData canonical) {
        this.backend = backend;
        this.engine = engine;
        this.canonical = canonical;
    }

    /** The backend's result with canonical metadata and values. */
    public static ResultSet wrap(ResultSet backend, Engine engine) throws SQLException {
        ResultSetMetaData canonical = CanonicalColumns.of(backend.getMetaData(), engine);
        return (ResultSet) Proxy.newProxyInstance(CanonicalResultSet.class.getClassLoader(),
                new Class<?>[] {ResultSet.class}, new CanonicalResultSet(backend, engine, canonical));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        boolean byIndex = args != null && args.length == 1 && args[0] instanceof Integer;
        switch (name) {
            case "getMetaData":
                return canonical;
            case "getBigDecimal":
                if (byIndex) {
                    return decimal((Integer) args[0]);
                }
                break;
            case "getTimestamp":
                if (byIndex) {
                    return timestamp((Integer) args[0]);
                }
                break;
            case "getDate":
                if (byIndex && engine == Engine.SQLITE) {
                    // sqlite-jdbc writes a bound date as "2024-02-29 00:00:00.000"
                    LocalDate d = parsed((Integer) args[0], text -> LocalDate.parse(text.substring(0, Math.min(10, text.length()))));
                    return d == null ? null : Date.valueOf(d);
                }
                break;
            case "getTime":
                if (byIndex && engine == Engine.SQLITE) {
                    // and a bound time as "1970-01-01 12:34:56.000"
                    LocalTime t = parsed((Integer) args[0], text -> LocalTime.parse(text.substring(text.lastIndexOf(' ') + 1)));
                    return t == null ? null : Time.valueOf(t);
                }
                break;
            case "unwrap":
                if (args[0] == ResultSet.class) {
                    return proxy;
                }
                break;
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            default:
                break;
        }
        try {
            return method.invoke(backend, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private BigDecimal decimal(int column) throws SQLException {
        BigDecimal v;
        if (engine == Engine.SQLITE) {
            Object raw = backend.getObject(column); // a REAL 12.5 must not become 12.5000000000000001
            v = raw == null ? null : raw instanceof Double d ? BigDecimal.valueOf(d) : new BigDecimal(raw.toString());
        } else {
            v = backend.getBigDecimal(column);
        }
        if (v == null || canonical.getColumnType(column) != Types.DECIMAL || canonical.getTableName(column).isEmpty()) {
            return v;
        }
        return v.setScale(canonical.getScale(column), RoundingMode.HALF_UP);
    }

    private Timestamp timestamp(int column) throws SQLException {
        Timestamp t;
        if (engine == Engine.SQLITE) {
            // a date alone (a DEFAULT '2000-01-01' stays text as written) is the start of that day
            LocalDateTime parsed = parsed(column, text -> text.length() == 10 ? LocalDate.parse(text).atStartOfDay()
                    : LocalDateTime.parse(text.replace(' ', 'T')));
            t = parsed == null ? null : Timestamp.valueOf(parsed);
        } else {
            t = backend.getTimestamp(column);
        }
        if (t != null) {
            t.setNanos(t.getNanos() / 1_000_000 * 1_000_000);
        }
        return t;
    }

    private interface Parser<T> {
        T parse(String text);
    }

    /** SQLite date/time text as a value; anything else (a number, unparsable text) through the driver's getter. */
    private <T> T parsed(int column, Parser<T> parser) throws SQLException {
        Object raw = backend.getObject(column);
        if (raw == null) {
            return null;
        }
        if (raw instanceof String text) {
            try {
                return parser.parse(text.strip());
            } catch (DateTimeParseException e) {
                throw new SQLException("column " + column + " holds '" + text + "', not a date/time",
                        SqlState.INVALID_DATETIME_FORMAT.code(), e);
            }
        }
        throw new SQLException("column " + column + " holds " + raw + ", not a date/time text",
                SqlState.INVALID_DATETIME_FORMAT.code());
    }
}
