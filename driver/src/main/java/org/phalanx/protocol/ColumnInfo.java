package org.phalanx.protocol;

/** What the client needs of ResultSetMetaData for one column. */
public record ColumnInfo(String label, String name, String table, String schema, String catalog,
                         int jdbcType, String typeName, int precision, int scale, int nullable,
                         boolean autoIncrement, boolean signed, int displaySize, String className) {

    public void write(MessageWriter w) {
        w.writeString(label).writeString(name).writeString(table).writeString(schema).writeString(catalog)
                .writeInt(jdbcType).writeString(typeName).writeInt(precision).writeInt(scale).writeInt(nullable)
                .writeBoolean(autoIncrement).writeBoolean(signed).writeInt(displaySize).writeString(className);
    }

    public static ColumnInfo read(MessageReader r) throws ProtocolException {
        return new ColumnInfo(r.readString(), r.readString(), r.readString(), r.readString(), r.readString(),
                r.readInt(), r.readString(), r.readInt(), r.readInt(), r.readInt(),
                r.readBoolean(), r.readBoolean(), r.readInt(), r.readString());
    }

    /** A column described only by name and type (metadata results, generated keys). */
    public static ColumnInfo simple(String name, int jdbcType, String typeName) {
        return new ColumnInfo(name, name, "", "", "", jdbcType, typeName, 0, 0,
                java.sql.ResultSetMetaData.columnNullableUnknown, false, true, 0, Object.class.getName());
    }
}
