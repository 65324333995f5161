package org.phalanx.recoverylog.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.ddlutils.model.Column;
import org.apache.ddlutils.model.Table;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.phalanx.engine.Engine;

/**
 * Issue 15: a portable dump of any engine rebuilds any other. In each of the six directions the
 * restored tables have the source's portable types (BIGINT stays BIGINT also through SQLite),
 * the same values (keys above 2^31, DECIMAL(12,2), microsecond timestamps, 300 KB blobs with zero
 * bytes, Unicode text with quotes and line breaks, NULLs), and identity columns that go on
 * generating keys above the restored ones.
 */
class CrossEngineTypesTest {
    /** What every engine's {@link BigKeysFixture} tables read as, in portable types. */
    private static final Map<String, String> TYPES = new TreeMap<>(Map.ofEntries(
            Map.entry("accounts.id", "BIGINT identity"), Map.entry("accounts.amount", "DECIMAL(12,2)"),
            Map.entry("accounts.at", "TIMESTAMP"), Map.entry("accounts.photo", "LONGVARBINARY"),
            Map.entry("accounts.note", "LONGVARCHAR"), Map.entry("accounts.code", "VARCHAR(40)"),
            Map.entry("accounts.total", "BIGINT"),
            Map.entry("entries.id", "BIGINT identity"), Map.entry("entries.account_id", "BIGINT"),
            Map.entry("entries.memo", "LONGVARCHAR"),
            Map.entry("ledger.id", "BIGINT identity"), Map.entry("ledger.n", "INTEGER")));

    @TempDir
    Path dir;

    static Stream<Arguments> directions() {
        Engine[] engines = {Engine.SQLITE, Engine.POSTGRESQL, Engine.MARIADB};
        return Stream.of(engines).flatMap(from -> Stream.of(engines).filter(to -> to != from)
                .map(to -> Arguments.of(from, to)));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("directions")
    void typesValuesAndIdentitiesSurvive(Engine from, Engine to) throws Exception {
        try (TestTarget source = TestTarget.create(from, dir, "phalanx_types_src");
             TestTarget target = TestTarget.create(to, dir, "phalanx_types_dst")) {
            Path dump = dir.resolve("types.zip");
            List<String> rows;
            Map<String, String> types = expectedTypes(from);
            try (Connection c = source.connect()) {
                BigKeysFixture.create(c, from);
                assertEquals(types, portableTypes(c, from), "the source as a dump reads it");
                rows = BigKeysFixture.read(c, from);
                c.setAutoCommit(false); // the caller's snapshot
                new PortableBackuper().backup(c, dump, "cp", 1, Progress.NONE);
                c.rollback();
            }
            try (Connection c = target.connect()) {
                new PortableBackuper().restore(dump, c, false, Progress.NONE);
                assertEquals(types, portableTypes(c, to), "types on the target");
                Fixture.assertSameRows(rows, BigKeysFixture.read(c, to), from + " -> " + to);
                assertNextKeyAbove(c, to, "accounts", "code", BigKeysFixture.FIRST_ACCOUNT + 3);
                assertNextKeyAbove(c, to, "ledger", "n", 3);
                if (from != Engine.SQLITE) { // a SQLite rowid without AUTOINCREMENT is no identity elsewhere
                    assertNextKeyAbove(c, to, "entries", "memo", BigKeysFixture.FIRST_ENTRY + 2);
                }
            }
        }
    }

    /** SQLite's {@code entries.id} is a plain rowid key: BIGINT for its values, but no identity. */
    private static Map<String, String> expectedTypes(Engine source) {
        Map<String, String> types = new TreeMap<>(TYPES);
        if (source == Engine.SQLITE) {
            types.put("entries.id", "BIGINT");
        }
        return types;
    }

    /** Each column's type as a portable dump of this database records it. */
    private static Map<String, String> portableTypes(Connection c, Engine engine) throws Exception {
        Map<String, String> types = new TreeMap<>();
        for (Table t : PortableModel.read(c, engine).db().getTables()) {
            for (Column col : t.getColumns()) {
                int code = col.getTypeCode() == Types.NUMERIC ? Types.DECIMAL : col.getTypeCode(); // one portable type
                String name = org.apache.ddlutils.model.TypeMap.getJdbcTypeName(code);
                String size = code == Types.DECIMAL ? "(" + col.getSizeAsInt() + "," + col.getScale() + ")"
                        : code == Types.VARCHAR ? "(" + col.getSizeAsInt() + ")" : "";
                types.put(t.getName().toLowerCase(Locale.ROOT) + "." + col.getName().toLowerCase(Locale.ROOT),
                        name + size + (col.isAutoIncrement() ? " identity" : ""));
            }
        }
        return types;
    }

    /** An insert without a key gets one above {@code restoredMax}. */
    private static void assertNextKeyAbove(Connection c, Engine engine, String table, String column, long restoredMax)
            throws Exception {
        try (Statement s = c.createStatement()) {
            String value = column.equals("n") ? "99" : "'next'";
            s.execute("INSERT INTO " + table + " (" + column + ") VALUES (" + value + ")");
            try (ResultSet rs = s.executeQuery("SELECT id FROM " + table + " WHERE " + column + " = " + value)) {
                assertTrue(rs.next());
                long next = rs.getLong(1);
                assertTrue(next > restoredMax, engine + " " + table + ": next key " + next + " after " + restoredMax);
            }
        }
    }
}
