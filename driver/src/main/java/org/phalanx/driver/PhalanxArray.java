package org.phalanx.driver;

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * A PostgreSQL array value, read from a result or made by {@code createArrayOf}: its elements as
 * pgjdbc gives them ({@code int4[]} as {@code Integer[]}, {@code text[][]} as {@code String[][]},
 * ...), and its text form, which is how it travels to the backends.
 */
final class PhalanxArray implements Array {
    /** An element type: its JDBC type, Java class, and how its text becomes a value. */
    private record ElementType(int jdbcType, Class<?> javaClass, Function<String, Object> fromText) {
    }

    private static final ElementType TEXT = new ElementType(Types.VARCHAR, String.class, s -> s);
    private static final Map<String, ElementType> TYPES = Map.ofEntries(
            Map.entry("int2", new ElementType(Types.SMALLINT, Short.class, Short::valueOf)),
            Map.entry("int4", new ElementType(Types.INTEGER, Integer.class, Integer::valueOf)),
            Map.entry("int8", new ElementType(Types.BIGINT, Long.class, Long::valueOf)),
            Map.entry("float4", new ElementType(Types.REAL, Float.class, Float::valueOf)),
            Map.entry("float8", new ElementType(Types.DOUBLE, Double.class, Double::valueOf)),
            Map.entry("numeric", new ElementType(Types.NUMERIC, BigDecimal.class, BigDecimal::new)),
            Map.entry("bool", new ElementType(Types.BIT, Boolean.class, s -> s.equals("t") || s.equalsIgnoreCase("true"))),
            Map.entry("uuid", new ElementType(Types.OTHER, UUID.class, UUID::fromString)),
            Map.entry("date", new ElementType(Types.DATE, java.sql.Date.class, java.sql.Date::valueOf)),
            Map.entry("timestamp", new ElementType(Types.TIMESTAMP, Timestamp.class, Timestamp::valueOf)),
            Map.entry("timestamptz", new ElementType(Types.TIMESTAMP, Timestamp.class, PhalanxArray::timestampWithZone)),
            Map.entry("varchar", TEXT), Map.entry("text", TEXT),
            Map.entry("bpchar", new ElementType(Types.CHAR, String.class, s -> s)));
    /** SQL names of the types, as {@code createArrayOf} may be given them, and PostgreSQL's for them. */
    private static final Map<String, String> ALIASES = Map.ofEntries(
            Map.entry("smallint", "int2"), Map.entry("integer", "int4"), Map.entry("int", "int4"),
            Map.entry("bigint", "int8"), Map.entry("real", "float4"), Map.entry("double precision", "float8"),
            Map.entry("double", "float8"), Map.entry("decimal", "numeric"), Map.entry("boolean", "bool"),
            Map.entry("character varying", "varchar"), Map.entry("character", "bpchar"), Map.entry("char", "bpchar"),
            Map.entry("timestamp with time zone", "timestamptz"), Map.entry("timestamp without time zone", "timestamp"));

    private final String baseTypeName;
    private final ElementType type;
    private Object elements;

    private PhalanxArray(String baseTypeName, Object elements) {
        this.baseTypeName = baseTypeName;
        this.type = TYPES.getOrDefault(baseTypeName, TEXT);
        this.elements = elements;
    }

    /** {@code createArrayOf(typeName, elements)}. */
    static PhalanxArray of(String typeName, Object[] elements) {
        String name = typeName.strip().toLowerCase(Locale.ROOT);
        return new PhalanxArray(ALIASES.getOrDefault(name, name), elements.clone());
    }

    /**
     * A column's array value as PostgreSQL writes it.
     *
     * @param columnTypeName the column's type name as pgjdbc reports it ({@code _int4})
     */
    static PhalanxArray fromText(String columnTypeName, String literal) throws SQLException {
        String base = columnTypeName.startsWith("_") ? columnTypeName.substring(1) : columnTypeName;
        PhalanxArray array = new PhalanxArray(base, null);
        try {
            array.elements = array.typed(PostgresArrayText.parse(literal));
        } catch (IllegalArgumentException | java.time.DateTimeException e) {
            throw SqlExceptions.create("array element of type " + base + " not readable: " + e.getMessage(),
                    SqlExceptions.INVALID_TEXT_REPRESENTATION);
        }
        return array;
    }

    /** The text PostgreSQL reads the array from. */
    String text() throws SQLException {
        return PostgresArrayText.format(elements());
    }

    /** An array's text for a parameter: ours, or any other implementation's elements. */
    static String textOf(Array array) throws SQLException {
        return array instanceof PhalanxArray own ? own.text() : PostgresArrayText.format(array.getArray());
    }

    /** The elements' Java array; nested lists become arrays of arrays of the element class. */
    private Object typed(List<Object> elements) {
        int depth = 1;
        for (Object e = elements.isEmpty() ? null : elements.get(0); e instanceof List<?> inner;
                e = inner.isEmpty() ? null : inner.get(0)) {
            depth++;
        }
        return typed(elements, depth);
    }

    private Object typed(List<Object> elements, int depth) {
        Class<?> component = type.javaClass();
        for (int d = 1; d < depth; d++) {
            component = component.arrayType();
        }
        Object out = java.lang.reflect.Array.newInstance(component, elements.size());
        for (int k = 0; k < elements.size(); k++) {
            Object e = elements.get(k);
            Object value;
            if (e instanceof List<?> inner) {
                @SuppressWarnings("unchecked")
                List<Object> nested = (List<Object>) inner;
                value = typed(nested, depth - 1);
            } else {
                value = e == null ? null : type.fromText().apply((String) e);
            }
            java.lang.reflect.Array.set(out, k, value);
        }
        return out;
    }

    /** PostgreSQL's {@code 2020-01-01 05:00:00.5+00} (or {@code +05:30}). */
    private static Timestamp timestampWithZone(String text) {
        String iso = text.replace(' ', 'T');
        if (iso.matches(".*[+-]\\d\\d")) {
            iso += ":00";
        }
        return Timestamp.from(OffsetDateTime.parse(iso).toInstant());
    }

    private Object elements() throws SQLException {
        if (elements == null) {
            throw SqlExceptions.create("the array was freed", SqlExceptions.INVALID_ARGUMENT);
        }
        return elements;
    }

    @Override
    public String getBaseTypeName() {
        return baseTypeName;
    }

    @Override
    public int getBaseType() {
        return type.jdbcType();
    }

    @Override
    public Object getArray() throws SQLException {
        return copy(elements(), 0, java.lang.reflect.Array.getLength(elements()));
    }

    @Override
    public Object getArray(Map<String, Class<?>> map) throws SQLException {
        refuseTypeMap(map);
        return getArray();
    }

    /** Elements {@code index} (from 1) to {@code index + count - 1}. */
    @Override
    public Object getArray(long index, int count) throws SQLException {
        int length = java.lang.reflect.Array.getLength(elements());
        if (index < 1 || count < 0 || index - 1 + count > length) {
            throw SqlExceptions.create("elements " + index + ".." + (index + count - 1) + " are out of range 1.." + length,
                    SqlExceptions.INVALID_ARGUMENT);
        }
        return copy(elements(), (int) index - 1, count);
    }

    @Override
    public Object getArray(long index, int count, Map<String, Class<?>> map) throws SQLException {
        refuseTypeMap(map);
        return getArray(index, count);
    }

    private static Object copy(Object array, int from, int count) {
        Object out = java.lang.reflect.Array.newInstance(array.getClass().getComponentType(), count);
        System.arraycopy(array, from, out, 0, count);
        return out;
    }

    private static void refuseTypeMap(Map<String, Class<?>> map) throws SQLException {
        if (map != null && !map.isEmpty()) {
            throw SqlExceptions.notSupported("custom type maps");
        }
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        throw SqlExceptions.notSupported("an array's elements as a result set (use getArray)");
    }

    @Override
    public ResultSet getResultSet(Map<String, Class<?>> map) throws SQLException {
        return getResultSet();
    }

    @Override
    public ResultSet getResultSet(long index, int count) throws SQLException {
        return getResultSet();
    }

    @Override
    public ResultSet getResultSet(long index, int count, Map<String, Class<?>> map) throws SQLException {
        return getResultSet();
    }

    @Override
    public void free() {
        elements = null;
    }

    @Override
    public String toString() {
        return elements == null ? "(freed)" : PostgresArrayText.format(elements);
    }
}
