package org.phalanx.recoverylog.dump;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.SAXParserFactory;
import org.apache.commons.beanutils.DynaBean;
import org.apache.ddlutils.Platform;
import org.apache.ddlutils.PlatformFactory;
import org.apache.ddlutils.model.Column;
import org.apache.ddlutils.model.Database;
import org.apache.ddlutils.model.ForeignKey;
import org.apache.ddlutils.model.Index;
import org.apache.ddlutils.model.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.engine.Engine;
import org.phalanx.recoverylog.dump.ddl.DefaultValues;
import org.phalanx.recoverylog.dump.ddl.Platforms;
import org.phalanx.recoverylog.dump.ddl.PortableMySqlPlatform;
import org.phalanx.recoverylog.dump.ddl.PortablePostgreSqlPlatform;
import org.phalanx.recoverylog.dump.ddl.SqlitePlatform;
import org.sqlite.SQLiteDataSource;

/** One test per trap in shared/notes/ddlutils.md, in the order the notes list them. */
class DdlUtilsTrapsTest {
    @TempDir
    Path dir;

    private Database readSqlite(Connection c) {
        return Platforms.create(SqlitePlatform.NAME).readModelFromDatabase(c, "test");
    }

    // ---- Dependency

    @Test
    void oldXercesIsExcludedSoTheJdkParserStaysInCharge() {
        assertThrows(ClassNotFoundException.class, () -> Class.forName("org.apache.xerces.parsers.SAXParser"));
        assertTrue(DocumentBuilderFactory.newInstance().getClass().getName().startsWith("com.sun.org.apache"));
        assertTrue(SAXParserFactory.newInstance().getClass().getName().startsWith("com.sun.org.apache"));
    }

    // ---- Platforms

    @Test
    void platformsAreRegisteredAndNamedNeverGuessedFromADataSource() {
        Platforms.register();
        for (String name : List.of(SqlitePlatform.NAME, PortablePostgreSqlPlatform.NAME, PortableMySqlPlatform.NAME)) {
            assertTrue(PlatformFactory.isPlatformSupported(name), name);
            Platform p = Platforms.create(name);
            assertEquals(name, p.getName());
            assertTrue(p.isDelimitedIdentifierModeOn() && p.isIdentityOverrideOn());
        }
        SQLiteDataSource ds = new SQLiteDataSource();
        ds.setUrl("jdbc:sqlite:" + dir.resolve("guess.db"));
        // what the notes measured: DdlUtils cannot tell SQLite from a data source
        assertThrows(RuntimeException.class, () -> PlatformFactory.createNewPlatformInstance(ds));
    }

    @Test
    void sqliteTypesComeFromTheDeclaredTypeNotFromGetColumns() throws Exception {
        try (Connection c = Sqlite.create(dir.resolve("types.db"),
                "CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, d DATE, ts TIMESTAMP, dt DATETIME, tm TIME,"
                        + " b BLOB, big BIGINT, amount DECIMAL(10,2), r REAL, flag BOOLEAN, v VARCHAR(20), tx TEXT,"
                        + " ch CHAR(5), n NUMERIC, untyped, small SMALLINT, j JSON)")) {
            Table t = readSqlite(c).findTable("t");
            int[][] expected = {
                    {Types.INTEGER}, {Types.DATE}, {Types.TIMESTAMP}, {Types.TIMESTAMP}, {Types.TIME},
                    {Types.LONGVARBINARY}, {Types.BIGINT}, {Types.DECIMAL}, {Types.DOUBLE}, {Types.BIT},
                    {Types.VARCHAR}, {Types.LONGVARCHAR}, {Types.VARCHAR}, {Types.NUMERIC}, {Types.LONGVARCHAR},
                    {Types.SMALLINT}, {Types.LONGVARCHAR}};
            for (int i = 0; i < expected.length; i++) {
                assertEquals(expected[i][0], t.getColumn(i).getTypeCode(), t.getColumn(i).getName());
            }
            assertTrue(t.findColumn("id").isAutoIncrement(), "autoincrement is detected");
            assertFalse(t.findColumn("big").isAutoIncrement());
            Column amount = t.findColumn("amount");
            assertEquals(10, amount.getSizeAsInt(), "DECIMAL(10,2) keeps precision 10 (getColumns says 12)");
            assertEquals(2, amount.getScale());
            assertEquals("20", t.findColumn("v").getSize());
            assertNull(t.findColumn("n").getSize(), "NUMERIC without precision stays unconstrained");
        }
    }

    @Test
    void bigintExtremesBlobsAndDatesSurviveSqliteToSqlite() throws Exception {
        Path dump = dir.resolve("d.zip");
        byte[] blob = {0, 1, -1, 127, -128, 0};
        try (Connection c = Sqlite.create(dir.resolve("src.db"),
                "CREATE TABLE t (id INTEGER PRIMARY KEY, big BIGINT, b BLOB, ts TIMESTAMP, d DATE, flag BOOLEAN)",
                "INSERT INTO t VALUES (1, 9223372036854775807, NULL, '2024-01-02 03:04:05.678', '2024-01-02', 1)",
                "INSERT INTO t VALUES (2, -9223372036854775808, NULL, 1700000000000, 2460000.5, 0)")) {
            try (var p = c.prepareStatement("UPDATE t SET b = ? WHERE id = 1")) {
                p.setBytes(1, blob);
                p.executeUpdate();
            }
            new PortableBackuper().backup(c, dump, "c", 1, Progress.NONE);
        }
        try (Connection c = Sqlite.open(dir.resolve("dst.db"))) {
            new PortableBackuper().restore(dump, c, false, Progress.NONE);
            assertEquals(Long.MAX_VALUE, Sqlite.single(c, "SELECT big FROM t WHERE id = 1"));
            assertEquals(Long.MIN_VALUE, Sqlite.single(c, "SELECT big FROM t WHERE id = 2"));
            assertArrayEquals(blob, (byte[]) Sqlite.single(c, "SELECT b FROM t WHERE id = 1"));
            assertEquals("blob", Sqlite.single(c, "SELECT typeof(b) FROM t WHERE id = 1"));
            assertEquals("2024-01-02 03:04:05.678", Sqlite.single(c, "SELECT ts FROM t WHERE id = 1"));
            assertEquals("text", Sqlite.single(c, "SELECT typeof(ts) FROM t WHERE id = 2"), "dates are written as ISO text");
            assertEquals("2023-11-14", ((String) Sqlite.single(c, "SELECT ts FROM t WHERE id = 2")).substring(0, 10),
                    "epoch milliseconds were read as such");
            assertEquals("2023-02-25", Sqlite.single(c, "SELECT d FROM t WHERE id = 2"), "a Julian day number was read as such");
            assertEquals(List.of(List.of(1L, 1L), List.of(2L, 0L)), Sqlite.query(c, "SELECT id, flag FROM t ORDER BY id"));
        }
    }

    @Test
    void twoUnnamedForeignKeysOfOneTableStayTwoKeys() throws Exception {
        try (Connection c = Sqlite.create(dir.resolve("fk.db"),
                "CREATE TABLE p (id INTEGER PRIMARY KEY)",
                "CREATE TABLE q (x INTEGER, y INTEGER, PRIMARY KEY (x, y))",
                "CREATE TABLE child (a INTEGER REFERENCES p(id) ON DELETE CASCADE, b INTEGER, c INTEGER,"
                        + " d INTEGER REFERENCES p, FOREIGN KEY (b, c) REFERENCES q(x, y))")) {
            Table child = readSqlite(c).findTable("child");
            assertEquals(3, child.getForeignKeyCount());
            for (ForeignKey fk : child.getForeignKeys()) {
                assertNotNull(fk.getName());
                assertFalse(fk.getName().isEmpty());
                String columns = Stream.of(fk.getReferences()).map(r -> r.getLocalColumnName() + ">" + r.getForeignColumnName())
                        .reduce((x, y) -> x + "," + y).orElseThrow();
                assertTrue(List.of("a>id", "d>id", "b>x,c>y").contains(columns), columns);
                assertEquals(fk.getForeignTableName().equals("q") ? 2 : 1, fk.getReferenceCount());
            }
        }
    }

    @Test
    void sqliteInternalTablesAreSkippedAndAutoindexesRenamedOrDropped() throws Exception {
        Path dump = dir.resolve("d.zip");
        try (Connection c = Sqlite.create(dir.resolve("auto.db"),
                "CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, a TEXT, b TEXT, k TEXT UNIQUE, UNIQUE (a, b))",
                "CREATE TABLE s (name TEXT PRIMARY KEY, v INTEGER)",
                "INSERT INTO t (a, b, k) VALUES ('x', 'y', 'z')")) {
            Database db = readSqlite(c);
            assertEquals(2, db.getTableCount(), "sqlite_sequence is not a table of ours");
            assertNull(db.findTable("sqlite_sequence"));
            assertTrue(Stream.of(db.getTables()).flatMap(t -> Stream.of(t.getIndices())).map(Index::getName)
                    .noneMatch(n -> n.startsWith("sqlite_autoindex")));
            assertEquals(2, db.findTable("t").getIndexCount(), "the two UNIQUE constraints, as unique indexes");
            assertTrue(Stream.of(db.findTable("t").getIndices()).allMatch(Index::isUnique));
            assertEquals(0, db.findTable("s").getIndexCount(), "the primary key's own index is the key");
            new PortableBackuper().backup(c, dump, "c", 1, Progress.NONE);
        }
        try (Connection c = Sqlite.open(dir.resolve("auto2.db"))) {
            new PortableBackuper().restore(dump, c, false, Progress.NONE);
            assertThrows(java.sql.SQLException.class, () -> c.createStatement().execute("INSERT INTO t (a, b, k) VALUES ('x', 'y', 'w')"),
                    "UNIQUE (a, b) still holds");
        }
    }

    @Test
    void keyedTextGetsABoundedVarcharOnMariaDb() throws Exception {
        Path dump = dir.resolve("d.zip");
        try (Connection c = Sqlite.create(dir.resolve("text.db"),
                "CREATE TABLE users (login TEXT PRIMARY KEY, email TEXT, bio TEXT)",
                "CREATE INDEX users_email ON users(email)",
                "INSERT INTO users VALUES ('" + "l".repeat(300) + "', 'a@b', 'long bio')")) {
            new PortableBackuper().backup(c, dump, "c", 1, Progress.NONE);
        }
        try (TestTarget target = TestTarget.create(Engine.MARIADB, dir, "phalanx_dump_keyed")) {
            try (Connection c = target.connect()) {
                new PortableBackuper().restore(dump, c, false, Progress.NONE);
                List<List<Object>> types = Sqlite.query(c, "SELECT COLUMN_NAME, DATA_TYPE, CHARACTER_MAXIMUM_LENGTH"
                        + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'users'"
                        + " ORDER BY ORDINAL_POSITION");
                assertEquals("varchar", types.get(0).get(1));
                assertEquals(300L, ((Number) types.get(0).get(2)).longValue(), "as long as the longest key");
                assertEquals("varchar", types.get(1).get(1));
                assertEquals("longtext", types.get(2).get(1), "unkeyed text stays unbounded");
                assertEquals("l".repeat(300), Sqlite.single(c, "SELECT login FROM users"));
            }
        }
    }

    @Test
    void theSqliteBuilderEmbedsForeignKeysAndWritesAutoincrementAsSqliteWantsIt() throws Exception {
        try (Connection c = Sqlite.create(dir.resolve("b.db"),
                "CREATE TABLE p (id INTEGER PRIMARY KEY AUTOINCREMENT, n TEXT DEFAULT 'x', f BOOLEAN DEFAULT 1,"
                        + " at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)",
                "CREATE TABLE k (id BIGINT PRIMARY KEY, p INTEGER REFERENCES p(id) ON DELETE SET NULL)")) {
            Platform platform = Platforms.create(SqlitePlatform.NAME);
            Database db = platform.readModelFromDatabase(c, "b");
            String sql = platform.getCreateTablesSql(db, false, false);
            assertTrue(sql.contains("\"id\" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT"), sql);
            assertTrue(sql.contains("\"id\" INTEGER /* phalanx: BIGINT */ NOT NULL,"),
                    "a single integer key is the rowid, with its real type noted: " + sql);
            assertTrue(sql.contains("FOREIGN KEY (\"p\") REFERENCES \"p\" (\"id\")"), sql);
            assertFalse(sql.contains("ALTER TABLE"), "SQLite cannot ADD CONSTRAINT: " + sql);
            assertTrue(sql.contains("DEFAULT 1") && sql.contains("DEFAULT CURRENT_TIMESTAMP") && sql.contains("DEFAULT 'x'"), sql);
            StringWriter drop = new StringWriter();
            platform.getSqlBuilder().setWriter(drop);
            platform.getSqlBuilder().dropTable(db.findTable("p"));
            assertTrue(drop.toString().startsWith("DROP TABLE IF EXISTS \"p\""), drop.toString());
            assertEquals("SELECT last_insert_rowid()", platform.getSqlBuilder().getSelectLastIdentityValues(db.findTable("p")));
        }
    }

    @Test
    void aBigintRowidKeyIsDeclaredIntegerButReadBackAsBigint() throws Exception {
        Platform platform = Platforms.create(SqlitePlatform.NAME);
        Database db;
        try (Connection c = Sqlite.create(dir.resolve("k1.db"), "CREATE TABLE k (id BIGINT PRIMARY KEY, n INTEGER)",
                "CREATE TABLE \"Odd name\" (\"Odd key\" SMALLINT PRIMARY KEY)")) {
            db = platform.readModelFromDatabase(c, "k");
        }
        String sql = platform.getCreateTablesSql(db, false, false);
        try (Connection c = Sqlite.create(dir.resolve("k2.db"), sql.split(";\\s*\\R"))) {
            assertEquals(List.of(List.of("id", "INTEGER")), Sqlite.query(c, "SELECT name, type FROM pragma_table_info('k')"
                    + " WHERE pk = 1"), "declared exactly INTEGER: " + sql);
            c.createStatement().execute("INSERT INTO k (n) VALUES (1)");
            assertEquals(1L, Sqlite.single(c, "SELECT id FROM k"), "the key is the rowid: SQLite numbers it");
            Database back = platform.readModelFromDatabase(c, "k");
            assertEquals(Types.BIGINT, back.findTable("k").findColumn("id").getTypeCode());
            assertEquals(Types.INTEGER, back.findTable("k").findColumn("n").getTypeCode());
            assertEquals(Types.SMALLINT, back.findTable("Odd name").findColumn("Odd key").getTypeCode());
        }
    }

    @Test
    void ddlUtilsOwnDataPathStoresBlobsAsBytesAndDatesAsIsoText() throws Exception {
        Path file = dir.resolve("own.db");
        try (Connection c = Sqlite.create(file, "CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB, ts TIMESTAMP, d DATE)")) {
            Platform platform = Platforms.create(SqlitePlatform.NAME);
            Database db = platform.readModelFromDatabase(c, "own");
            DynaBean bean = db.createDynaBeanFor("t", false);
            bean.set("id", 1);
            bean.set("b", new byte[] {1, 2, 3});
            bean.set("ts", Timestamp.valueOf("2024-05-06 07:08:09.5"));
            bean.set("d", java.sql.Date.valueOf("2024-05-06"));
            platform.insert(c, db, bean);
            assertEquals(List.of(List.of("blob", "text", "text")),
                    Sqlite.query(c, "SELECT typeof(b), typeof(ts), typeof(d) FROM t"));
            assertEquals("2024-05-06 07:08:09.5", Sqlite.single(c, "SELECT ts FROM t"));
            SQLiteDataSource ds = new SQLiteDataSource();
            ds.setUrl("jdbc:sqlite:" + file);
            platform.setDataSource(ds);
            DynaBean back = (DynaBean) platform.fetch(db, "SELECT * FROM t").get(0);
            assertArrayEquals(new byte[] {1, 2, 3}, (byte[]) back.get("b"));
            assertEquals(Timestamp.valueOf("2024-05-06 07:08:09.5"), back.get("ts"));
            assertEquals(java.sql.Date.valueOf("2024-05-06"), back.get("d"));
        }
    }

    @Test
    void aForcedRestoreRecreatesTablesSoSqliteForeignKeysSurvive() throws Exception {
        // DdlUtils' alter would rebuild the tables through a copy and drop their foreign keys on SQLite
        Path dump = dir.resolve("d.zip");
        try (Connection c = Sqlite.create(dir.resolve("fk-src.db"),
                "CREATE TABLE p (id INTEGER PRIMARY KEY)",
                "CREATE TABLE k (id INTEGER PRIMARY KEY, p INTEGER REFERENCES p(id))",
                "INSERT INTO p VALUES (1)", "INSERT INTO k VALUES (1, 1)")) {
            new PortableBackuper().backup(c, dump, "c", 1, Progress.NONE);
        }
        try (Connection c = Sqlite.create(dir.resolve("fk-dst.db"),
                "CREATE TABLE p (id INTEGER PRIMARY KEY, extra TEXT)", "CREATE TABLE k (id INTEGER PRIMARY KEY, p INTEGER)",
                "INSERT INTO k VALUES (5, 5)")) {
            new PortableBackuper().restore(dump, c, true, Progress.NONE);
            assertEquals(1, Sqlite.query(c, "PRAGMA foreign_key_list(k)").size());
            assertEquals(List.of(List.of(1L, 1L)), Sqlite.query(c, "SELECT id, p FROM k"));
            assertEquals(1, Sqlite.query(c, "PRAGMA table_info(p)").size(), "the table was replaced, not altered");
        }
    }

    // ---- Data dump and load

    @Test
    void identityValuesAreKeptSoChildrenKeepTheirParents() throws Exception {
        Path dump = dir.resolve("d.zip");
        try (Connection c = Sqlite.create(dir.resolve("id-src.db"),
                "CREATE TABLE p (id INTEGER PRIMARY KEY AUTOINCREMENT, n TEXT)",
                "CREATE TABLE k (id INTEGER PRIMARY KEY AUTOINCREMENT, p INTEGER REFERENCES p(id))",
                "INSERT INTO p VALUES (10, 'ten')", "INSERT INTO p VALUES (3, 'three')",
                "INSERT INTO k VALUES (7, 10)", "INSERT INTO k VALUES (8, 3)")) {
            new PortableBackuper().backup(c, dump, "c", 1, Progress.NONE);
        }
        try (Connection c = Sqlite.open(dir.resolve("id-dst.db"))) {
            new PortableBackuper().restore(dump, c, false, Progress.NONE);
            assertEquals(List.of(List.of(7L, "ten"), List.of(8L, "three")),
                    Sqlite.query(c, "SELECT k.id, p.n FROM k JOIN p ON p.id = k.p ORDER BY k.id"));
            c.createStatement().execute("INSERT INTO p (n) VALUES ('next')");
            assertEquals(11L, Sqlite.single(c, "SELECT id FROM p WHERE n = 'next'"), "the counter continues");
        }
    }

    @Test
    void foreignKeyCyclesAndSelfReferencesLoadWithoutOrderingRowsInMemory() throws Exception {
        // DdlUtils' ensureFKOrder keeps referenced keys in memory; we add keys after the data instead
        Path dump = dir.resolve("d.zip");
        try (Connection c = Sqlite.create(dir.resolve("cycle.db"), "PRAGMA foreign_keys = ON",
                "CREATE TABLE emp (id INTEGER PRIMARY KEY, boss INTEGER REFERENCES emp(id), dept INTEGER REFERENCES dept(id))",
                "CREATE TABLE dept (id INTEGER PRIMARY KEY, head INTEGER REFERENCES emp(id))",
                "INSERT INTO emp VALUES (1, NULL, NULL)", "INSERT INTO dept VALUES (10, 1)",
                "INSERT INTO emp VALUES (3, 1, 10)", "INSERT INTO emp VALUES (2, 3, 10)")) { // row 2 points at row 3
            c.createStatement().execute("UPDATE emp SET dept = 10 WHERE id = 1");
            new PortableBackuper().backup(c, dump, "c", 1, Progress.NONE);
        }
        try (Connection c = Sqlite.create(dir.resolve("cycle2.db"), "PRAGMA foreign_keys = ON")) {
            new PortableBackuper().restore(dump, c, false, Progress.NONE);
            assertEquals(3L, Sqlite.single(c, "SELECT COUNT(*) FROM emp"));
            assertEquals(0, Sqlite.query(c, "PRAGMA foreign_key_check").size());
        }
        try (TestTarget target = TestTarget.create(Engine.POSTGRESQL, dir, "phalanx_dump_cycle")) {
            try (Connection c = target.connect()) {
                new PortableBackuper().restore(dump, c, false, Progress.NONE);
                assertEquals(List.of(List.of(2L, 3L, 10L)),
                        Sqlite.query(c, "SELECT id::bigint, boss::bigint, dept::bigint FROM emp WHERE id = 2"));
                assertThrows(java.sql.SQLException.class, () -> c.createStatement().execute("DELETE FROM emp WHERE id = 3"),
                        "the keys are enforced after the load");
            }
        }
    }

    @Test
    void namesThatAreNotXmlNamesOrAreReservedSurvive() throws Exception {
        Path dump = dir.resolve("d.zip");
        try (Connection c = Sqlite.create(dir.resolve("names-src.db"),
                "CREATE TABLE \"Mixed Case\" (\"order\" INTEGER PRIMARY KEY, \"group\" TEXT, \"a-b\" TEXT, \"xmlns\" TEXT,"
                        + " \"1st\" TEXT)",
                "CREATE TABLE \"select\" (\"from\" INTEGER)", "CREATE TABLE \"xmlTable\" (x INTEGER)",
                "INSERT INTO \"Mixed Case\" VALUES (1, 'g', 'ab', 'ns', 'first')",
                "INSERT INTO \"select\" VALUES (2)", "INSERT INTO \"xmlTable\" VALUES (3)")) {
            new PortableBackuper().backup(c, dump, "c", 1, Progress.NONE);
        }
        try (Connection c = Sqlite.open(dir.resolve("names-dst.db"))) {
            new PortableBackuper().restore(dump, c, false, Progress.NONE);
            assertEquals(List.of(List.of(1L, "g", "ab", "ns", "first")),
                    Sqlite.query(c, "SELECT \"order\", \"group\", \"a-b\", \"xmlns\", \"1st\" FROM \"Mixed Case\""));
            assertEquals(2L, Sqlite.single(c, "SELECT \"from\" FROM \"select\""));
            assertEquals(3L, Sqlite.single(c, "SELECT x FROM \"xmlTable\""));
        }
    }

    @Test
    void defaultsBecomePortableInsteadOfBeingCopiedVerbatim() throws Exception {
        assertEquals("true", DefaultValues.normalize("1", Types.BIT));
        assertEquals("false", DefaultValues.normalize("b'0'", Types.BIT));
        assertEquals("x'y", DefaultValues.normalize("'x''y'::character varying", Types.VARCHAR));
        assertEquals("-3", DefaultValues.normalize("'-3'::integer", Types.INTEGER));
        assertEquals(DefaultValues.CURRENT_TIMESTAMP, DefaultValues.normalize("current_timestamp(6)", Types.TIMESTAMP));
        assertEquals(DefaultValues.CURRENT_TIMESTAMP, DefaultValues.normalize("now()", Types.TIMESTAMP));
        assertNull(DefaultValues.normalize("NULL", Types.INTEGER), "MariaDB reports NULL for no default");
        assertNull(DefaultValues.normalize("nextval('t_id_seq'::regclass)", Types.INTEGER));
        assertNull(DefaultValues.normalize("(random())", Types.DOUBLE));

        Path dump = dir.resolve("d.zip");
        try (Connection c = Sqlite.create(dir.resolve("def.db"),
                "CREATE TABLE t (id INTEGER PRIMARY KEY, flag BOOLEAN DEFAULT 1, at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,"
                        + " n TEXT DEFAULT 'it''s')")) {
            new PortableBackuper().backup(c, dump, "c", 1, Progress.NONE);
        }
        try (TestTarget target = TestTarget.create(Engine.POSTGRESQL, dir, "phalanx_dump_defaults")) {
            try (Connection c = target.connect()) {
                new PortableBackuper().restore(dump, c, false, Progress.NONE); // DEFAULT 1 on a boolean would fail here
                c.createStatement().execute("INSERT INTO t (id) VALUES (1)");
                assertEquals(List.of(List.of(true, "it's", true)),
                        Sqlite.query(c, "SELECT flag, n, at IS NOT NULL FROM t"));
            }
        }
    }

    @Test
    void aFailedDumpLeavesNoFile() throws Exception {
        Path dump = dir.resolve("sub").resolve("d.zip");
        Files.createDirectories(dump.getParent());
        try (Connection c = Sqlite.create(dir.resolve("bad.db"),
                "CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER)",
                "INSERT INTO t VALUES (1, 5)", "INSERT INTO t VALUES (2, 'not a number')")) {
            DumpException e = assertThrows(DumpException.class,
                    () -> new PortableBackuper().backup(c, dump, "c", 1, Progress.NONE));
            assertTrue(e.getMessage().contains("table t, column n, row 2") && e.getMessage().contains("not a number"),
                    e.getMessage());
        }
        try (Stream<Path> files = Files.list(dump.getParent())) {
            assertEquals(List.of(), files.toList(), "neither the dump nor its temporary file is left");
        }
    }
}
