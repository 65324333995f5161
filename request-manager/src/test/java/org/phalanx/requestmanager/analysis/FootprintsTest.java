package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import org.junit.jupiter.api.Test;

class FootprintsTest {

    private static Statement parse(String sql) {
        try {
            return CCJSqlParserUtil.parse(sql);
        } catch (JSQLParserException e) {
            throw new AssertionError("cannot parse " + sql, e);
        }
    }

    private static Footprint read(String sql) {
        return Footprints.read(parse(sql));
    }

    private static Footprint write(String sql) {
        return Footprints.write(parse(sql));
    }

    private static TableFootprint only(Footprint footprint) {
        assertNotNull(footprint);
        assertEquals(1, footprint.tables().size(), footprint::toString);
        return footprint.tables().get(0);
    }

    private static TableFootprint table(Footprint footprint, String name) {
        assertNotNull(footprint);
        for (TableFootprint table : footprint.tables()) {
            if (table.table().equals(name)) {
                return table;
            }
        }
        throw new AssertionError(name + " not in " + footprint);
    }

    private static KeyValue lit(String column, Object value) {
        return KeyValue.literal(column, value);
    }

    private static KeyValue param(String column, int index) {
        return KeyValue.parameter(column, index);
    }

    private static void assertTable(TableFootprint t, String name, Set<String> columns, List<KeyValue> keys, boolean rowsChange) {
        assertEquals(name, t.table(), t::toString);
        assertEquals(columns, t.columns(), t::toString);
        assertEquals(keys, t.keys(), t::toString);
        assertEquals(rowsChange, t.rowsChange(), t::toString);
    }

    // ---------------------------------------------------------------- reads, one table

    @Test
    void pointReadUsesItsColumnsAndKey() {
        assertTable(only(read("SELECT price FROM items WHERE id = 8")), "items", Set.of("price", "id"), List.of(lit("id", 8L)), false);
    }

    @Test
    void starReadsEveryColumnAndKeysCountParameters() {
        assertTable(only(read("SELECT * FROM items WHERE id = ? AND status = 'open'")), "items", null,
                List.of(param("id", 1), lit("status", "open")), false);
    }

    @Test
    void columnsComeFromEveryClause() {
        TableFootprint t = only(read("SELECT name, SUM(price) FROM items WHERE qty > 3 GROUP BY name, category "
                + "HAVING MAX(weight) > 2 ORDER BY rank DESC"));
        assertTable(t, "items", Set.of("name", "price", "qty", "category", "weight", "rank"), List.of(), false);
    }

    @Test
    void columnsInWindowsAndQualify() {
        TableFootprint t = only(read("SELECT i.a FROM items i QUALIFY ROW_NUMBER() OVER (PARTITION BY i.g ORDER BY i.o) = 1"));
        assertEquals(Set.of("a", "g", "o"), t.columns());
    }

    @Test
    void literalsBecomeJavaValues() {
        TableFootprint t = only(read("SELECT a FROM t WHERE b = 1.50 AND c = -3 AND d = TRUE AND e = 'it''s' AND f = NULL "
                + "AND g = 'a\\b' AND h = 99999999999999999999 AND i = +4 AND j = FALSE AND k = N'n'"));
        assertEquals(List.of(lit("b", new BigDecimal("1.50")), lit("c", -3L), lit("d", true), lit("e", "it's"),
                lit("i", 4L), lit("j", false), lit("k", "n")), t.keys());
    }

    @Test
    void literalOnTheLeftIsAKeyToo() {
        assertEquals(List.of(lit("id", 7L), param("name", 1)), only(read("SELECT a FROM t WHERE 7 = id AND ? = name")).keys());
    }

    @Test
    void onlyTopLevelAndEqualitiesAreKeys() {
        TableFootprint t = only(read("SELECT a FROM t WHERE (id = 7 OR id = 8) AND x IN (1, 2) AND y > 3 AND y < 9 "
                + "AND LOWER(z) = 'q' AND w = v AND NOT (m = 1) AND u = CAST(? AS INT) AND k = 5 AND ((l = 6) AND n = 'x')"));
        assertEquals(List.of(lit("k", 5L), lit("l", 6L), lit("n", "x")), t.keys());
        assertEquals(Set.of("a", "id", "x", "y", "z", "w", "v", "m", "u", "k", "l", "n"), t.columns());
    }

    @Test
    void tableNamesDropSchemaQuotesAndCase() {
        assertTable(only(read("SELECT p.price FROM public.items p WHERE p.id = 1")), "items", Set.of("price", "id"),
                List.of(lit("id", 1L)), false);
        assertTable(only(read("SELECT \"Price\", Items.QTY FROM \"Items\" WHERE public.items.ID = 2")), "items",
                Set.of("price", "qty", "id"), List.of(lit("id", 2L)), false);
    }

    @Test
    void countStarUsesNoColumn() {
        // COUNT(*) depends on which rows exist, which only row-changing writes alter
        assertTable(only(read("SELECT COUNT(*) FROM items")), "items", Set.of(), List.of(), false);
        assertTable(only(read("SELECT COUNT(*) FROM items WHERE status = 'open'")), "items", Set.of("status"),
                List.of(lit("status", "open")), false);
        assertEquals(Set.of(), only(read("SELECT COUNT(*) OVER () FROM items")).columns());
        assertEquals(Set.of("g"), only(read("SELECT COUNT(*) OVER (PARTITION BY g) FROM items")).columns());
        assertEquals(Set.of("price"), only(read("SELECT COUNT(*), MAX(price) FROM items")).columns());
    }

    @Test
    void selectWithoutTablesTouchesNothing() {
        assertEquals(List.of(), read("SELECT 1").tables());
    }

    // ---------------------------------------------------------------- parameter numbering

    @Test
    void parserNumbersParametersFromOneInTextOrder() {
        List<Integer> indexes = new ArrayList<>();
        AstWalker.walk(parse("SELECT ?, a FROM t WHERE b IN (SELECT c FROM u WHERE d = ?) AND e = ? LIMIT ?"), node -> {
            if (node instanceof JdbcParameter p) {
                indexes.add(p.getIndex());
            }
            return true;
        });
        assertEquals(List.of(1, 2, 3, 4), indexes);
    }

    @Test
    void parametersAreNumberedAcrossTheWholeStatement() {
        Footprint f = read("SELECT ?, name FROM items WHERE seller IN (SELECT id FROM sellers WHERE rating > ?) "
                + "AND id = ? AND status = ? LIMIT ?");
        assertEquals(List.of(param("id", 3), param("status", 4)), table(f, "items").keys());
        Footprint joined = read("SELECT i.name FROM items i JOIN bids b ON b.amount > ? AND b.item_id = i.id WHERE i.id = ?");
        assertEquals(List.of(param("id", 2)), table(joined, "items").keys());
    }

    @Test
    void untrustworthyParameterNumbersMakeNoParameterKey() {
        // explicit numbers, and PostgreSQL's JSON ? operator that a driver may count as a parameter
        assertEquals(List.of(lit("x", 5L)), only(read("SELECT a FROM t WHERE id = ?1 AND x = 5")).keys());
        assertEquals(List.of(lit("x", 5L)), only(read("SELECT a FROM t WHERE data ? 'k' AND id = ? AND x = 5")).keys());
    }

    // ---------------------------------------------------------------- reads, several tables

    @Test
    void joinMapsQualifiedColumnsToTheirTables() {
        Footprint f = read("SELECT i.name, b.amount FROM items i JOIN bids b ON b.item_id = i.id "
                + "WHERE i.id = 7 AND b.user_id = ? ORDER BY b.at");
        assertEquals(2, f.tables().size());
        assertTable(table(f, "items"), "items", Set.of("name", "id"), List.of(lit("id", 7L)), false);
        assertTable(table(f, "bids"), "bids", Set.of("amount", "item_id", "user_id", "at"), List.of(param("user_id", 1)), false);
    }

    @Test
    void joinByTableNames() {
        Footprint f = read("SELECT items.name FROM items, bids WHERE items.id = bids.item_id AND bids.x = 3");
        assertTable(table(f, "items"), "items", Set.of("name", "id"), List.of(), false);
        assertTable(table(f, "bids"), "bids", Set.of("item_id", "x"), List.of(lit("x", 3L)), false);
    }

    @Test
    void outerJoinKeepsKeysOfTheWhere() {
        Footprint f = read("SELECT i.name, b.amount FROM items i LEFT JOIN bids b ON b.item_id = i.id WHERE i.id = 7");
        assertEquals(List.of(lit("id", 7L)), table(f, "items").keys());
        assertEquals(List.of(), table(f, "bids").keys());
    }

    @Test
    void unqualifiedColumnInAJoinMeansEveryColumnOfEveryTable() {
        Footprint f = read("SELECT name FROM items i JOIN bids b ON b.item_id = i.id WHERE i.id = 7");
        assertNull(table(f, "items").columns());
        assertNull(table(f, "bids").columns());
        assertEquals(List.of(lit("id", 7L)), table(f, "items").keys()); // qualified: still a key
        Footprint g = read("SELECT i.name FROM items i, bids b WHERE id = 7");
        assertEquals(List.of(), table(g, "items").keys());
        assertEquals(List.of(), table(g, "bids").keys());
        assertNull(table(g, "items").columns());
    }

    @Test
    void usingAndNaturalJoinsReadUnknownColumns() {
        Footprint using = read("SELECT i.name FROM items i JOIN bids b USING (item_id)");
        assertNull(table(using, "items").columns());
        assertNull(table(using, "bids").columns());
        Footprint natural = read("SELECT i.name, b.amount FROM items i NATURAL JOIN bids b");
        assertNull(table(natural, "items").columns());
        assertNull(table(natural, "bids").columns());
    }

    @Test
    void tableStarInAJoin() {
        Footprint f = read("SELECT i.*, b.amount FROM items i JOIN bids b ON b.item_id = i.id");
        assertNull(table(f, "items").columns());
        assertEquals(Set.of("amount", "item_id"), table(f, "bids").columns());
        Footprint star = read("SELECT * FROM items i JOIN bids b ON b.item_id = i.id");
        assertNull(table(star, "items").columns());
        assertNull(table(star, "bids").columns());
    }

    @Test
    void orderByAnOutputAliasIsNoUnqualifiedColumn() {
        Footprint f = read("SELECT i.name AS n, b.amount FROM items i JOIN bids b ON b.item_id = i.id ORDER BY n DESC");
        assertEquals(Set.of("name", "id"), table(f, "items").columns());
        assertEquals(Set.of("amount", "item_id"), table(f, "bids").columns());
        // in an expression, or in a window's ORDER BY, a bare name is an input column: any table's
        Footprint g = read("SELECT i.name AS n FROM items i JOIN bids b ON b.item_id = i.id ORDER BY n || 'x'");
        assertNull(table(g, "bids").columns());
        Footprint w = read("SELECT i.name AS n, RANK() OVER (ORDER BY n) FROM items i JOIN bids b ON b.item_id = i.id");
        assertNull(table(w, "bids").columns());
    }

    @Test
    void wholeRowReferenceReadsEveryColumn() {
        assertNull(only(read("SELECT row_to_json(i) FROM items i WHERE i.id = 1")).columns());
        assertNull(only(read("SELECT items FROM items")).columns());
        Footprint f = read("SELECT b.amount, COUNT(i) FROM items i JOIN bids b ON b.item_id = i.id GROUP BY b.amount");
        assertNull(table(f, "items").columns());
        assertNull(table(f, "bids").columns()); // a column of bids named i would win over the row
    }

    @Test
    void selfJoinKeepsOnlyKeysEveryOccurrenceHas() {
        TableFootprint t = only(read("SELECT a.name FROM items a JOIN items b ON a.parent = b.id WHERE a.id = 7"));
        assertTable(t, "items", Set.of("name", "parent", "id"), List.of(), false);
    }

    @Test
    void subqueryInWhere() {
        Footprint f = read("SELECT name FROM items WHERE id = 3 AND seller IN (SELECT s.id FROM sellers s WHERE s.rating > 4)");
        assertTable(table(f, "items"), "items", Set.of("name", "id", "seller"), List.of(lit("id", 3L)), false);
        assertTable(table(f, "sellers"), "sellers", Set.of("id", "rating"), List.of(), false);
    }

    @Test
    void unqualifiedColumnInACorrelatedSubqueryMayBeEitherTable() {
        Footprint f = read("SELECT name FROM items WHERE id = 3 AND EXISTS (SELECT 1 FROM bids WHERE item_id = 3)");
        assertNull(table(f, "items").columns());
        assertNull(table(f, "bids").columns());
        assertEquals(List.of(lit("id", 3L)), table(f, "items").keys());
        Footprint q = read("SELECT i.name FROM items i WHERE EXISTS (SELECT 1 FROM bids b WHERE b.item_id = i.id)");
        assertEquals(Set.of("name", "id"), table(q, "items").columns());
        assertEquals(Set.of("item_id"), table(q, "bids").columns());
    }

    @Test
    void tableReadAgainInASubqueryLosesItsKeys() {
        TableFootprint t = only(read("SELECT name FROM items WHERE id = 3 AND price > (SELECT AVG(price) FROM items)"));
        assertTable(t, "items", Set.of("name", "id", "price"), List.of(), false);
    }

    @Test
    void setOperationsWithAndDerivedTablesReadEverything() {
        Footprint union = read("SELECT id FROM items WHERE id = 1 UNION SELECT item_id FROM bids WHERE id = 2");
        assertTable(table(union, "items"), "items", null, List.of(), false);
        assertTable(table(union, "bids"), "bids", null, List.of(), false);
        Footprint with = read("WITH x AS (SELECT id FROM items WHERE id = 1) SELECT id FROM x WHERE id = 1");
        assertTable(table(with, "items"), "items", null, List.of(), false);
        with.tables().forEach(t -> assertTrue(t.columns() == null && t.keys().isEmpty(), t::toString));
        Footprint derived = read("SELECT t.a FROM (SELECT a FROM items WHERE id = 1) t WHERE t.a = 2");
        assertTable(table(derived, "items"), "items", null, List.of(), false);
        Footprint renamed = read("SELECT i.a FROM items AS i (a, b) WHERE i.a = 1");
        assertTable(table(renamed, "items"), "items", null, List.of(), false);
        Footprint inSubquery = read("SELECT name FROM items WHERE id = 1 AND x IN (SELECT a FROM b UNION SELECT c FROM d)");
        inSubquery.tables().forEach(t -> assertTrue(t.columns() == null && t.keys().isEmpty(), t::toString));
        assertEquals(Set.of("items", "b", "d"), Set.copyOf(inSubquery.tables().stream().map(TableFootprint::table).toList()));
    }

    @Test
    void unsureReadsHaveNoFootprint() {
        assertNull(read("SELECT x.name FROM items i")); // qualifier is no table in sight
        assertNull(read("SELECT * INTO copy FROM items")); // creates data
        assertNull(read("UPDATE items SET price = 1"));
        assertNull(read("DELETE FROM items"));
        assertNull(read("WITH d AS (DELETE FROM items WHERE id = 1 RETURNING *) SELECT * FROM d"));
    }

    // ---------------------------------------------------------------- writes

    @Test
    void updateWritesItsSetColumnsOfTheRowsItsWhereKeys() {
        assertTable(only(write("UPDATE items SET price = 5 WHERE id = 7")), "items", Set.of("price"), List.of(lit("id", 7L)), false);
        assertTable(only(write("UPDATE items SET price = ? WHERE id = ? AND status = 'open'")), "items", Set.of("price"),
                List.of(param("id", 2), lit("status", "open")), false);
        assertTable(only(write("UPDATE public.items i SET i.price = 1 WHERE i.id = 3")), "items", Set.of("price"),
                List.of(lit("id", 3L)), false);
        assertTable(only(write("UPDATE items SET (a, b) = (1, 2) WHERE id = 3")), "items", Set.of("a", "b"),
                List.of(lit("id", 3L)), false);
    }

    @Test
    void updateOfAKeyColumnDropsThatKey() {
        assertTable(only(write("UPDATE items SET id = 9 WHERE id = 7")), "items", Set.of("id"), List.of(), false);
        assertEquals(List.of(lit("id", 7L)), only(write("UPDATE items SET status = 'x' WHERE id = 7 AND status = 'open'")).keys());
    }

    @Test
    void updateWithoutProvableKeys() {
        assertEquals(List.of(), only(write("UPDATE items SET price = 1 WHERE id = 3 OR id = 4")).keys());
        assertEquals(List.of(), only(write("UPDATE items SET price = 1")).keys());
        assertEquals(List.of(), only(write("UPDATE items SET price = 1 WHERE id IN (3, 4)")).keys());
    }

    @Test
    void updateFromOtherTablesWritesTheTargetOnly() {
        TableFootprint t = only(write("UPDATE items SET price = b.amount FROM bids b WHERE b.item_id = items.id AND items.id = 3"));
        assertTable(t, "items", Set.of("price"), List.of(), false);
        assertTable(only(write("UPDATE items SET price = 1 FROM bids b JOIN users u ON u.id = b.user_id WHERE b.item_id = items.id")),
                "items", Set.of("price"), List.of(), false);
    }

    @Test
    void mysqlMultiTableUpdateMayWriteEveryTableItNames() {
        Footprint f = write("UPDATE items i JOIN bids b ON b.item_id = i.id SET i.price = 1, b.x = 2 WHERE i.id = 7");
        for (String name : List.of("items", "bids")) {
            assertTable(table(f, name), name, Set.of("price", "x"), List.of(), false);
        }
        Footprint g = write("UPDATE items, bids SET bids.x = 1 WHERE items.id = bids.item_id AND items.id = 3");
        for (String name : List.of("items", "bids")) {
            assertTable(table(g, name), name, Set.of("x"), List.of(), false);
        }
    }

    @Test
    void deleteRemovesRowsItsWhereKeys() {
        assertTable(only(write("DELETE FROM items WHERE id = 7 OR id = 8")), "items", null, List.of(), true);
        assertTable(only(write("DELETE FROM items WHERE id = 7 AND status = ?")), "items", null,
                List.of(lit("id", 7L), param("status", 1)), true);
        assertTable(only(write("DELETE a FROM items a WHERE a.id = 7")), "items", null, List.of(lit("id", 7L)), true);
    }

    @Test
    void deleteWithOtherTables() {
        assertTable(only(write("DELETE FROM items USING bids WHERE bids.item_id = items.id AND items.id = 3")), "items", null,
                List.of(), true);
        assertTable(only(write("DELETE a FROM items a JOIN bids b ON a.id = b.item_id WHERE a.id = 7")), "items", null,
                List.of(), true);
        for (String sql : List.of(
                "DELETE a, b FROM items a JOIN bids b ON a.id = b.item_id WHERE a.id = 7",
                "DELETE b FROM items a JOIN bids b ON a.id = b.item_id WHERE a.id = 7",
                "DELETE FROM items, bids USING items, bids WHERE items.id = bids.item_id")) {
            Footprint f = write(sql);
            for (String name : List.of("items", "bids")) {
                assertTable(table(f, name), name, null, List.of(), true);
            }
        }
    }

    @Test
    void insertOfOneRowKeysItsValues() {
        assertTable(only(write("INSERT INTO items (id, name) VALUES (?, 'x')")), "items", null,
                List.of(param("id", 1), lit("name", "x")), true);
        assertTable(only(write("INSERT INTO public.items (id, name, price, at) VALUES (1, NULL, 2 + 3, ?)")), "items", null,
                List.of(lit("id", 1L), param("at", 1)), true);
        assertEquals(List.of(lit("id", 1L)), only(write("INSERT INTO items (id) VALUES (1) ON CONFLICT DO NOTHING")).keys());
        // MySQL turns a 0 in an AUTO_INCREMENT column into the next id
        assertEquals(List.of(lit("name", "x")), only(write("INSERT INTO items (id, name) VALUES (0, 'x')")).keys());
    }

    @Test
    void insertsWithoutKeys() {
        for (String sql : List.of(
                "INSERT INTO items (id, name) VALUES (1, 'a'), (2, 'b')",
                "INSERT INTO items (id) VALUES (1), (2)",
                "INSERT INTO items VALUES (1, 'x')",
                "INSERT INTO items (id, name) SELECT ?, name FROM other WHERE x = ?",
                "INSERT IGNORE INTO items (id) VALUES (1)",
                "INSERT INTO items SET id = 1, name = 'x'")) {
            assertTable(only(write(sql)), "items", null, List.of(), true);
        }
    }

    @Test
    void upsertsAndOtherStatementsHaveNoWriteFootprint() {
        for (String sql : List.of(
                "REPLACE INTO items (id) VALUES (1)",
                "INSERT OR REPLACE INTO items (id) VALUES (1)",
                "INSERT INTO items (id) VALUES (1) ON DUPLICATE KEY UPDATE name = 'x'",
                "INSERT INTO items (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET name = 'x'",
                "MERGE INTO items i USING src s ON (i.id = s.id) WHEN MATCHED THEN UPDATE SET i.name = s.name",
                "UPSERT INTO items (id) VALUES (1)",
                "SELECT * FROM items",
                "TRUNCATE TABLE items",
                "CREATE TABLE x (a INT)")) {
            assertNull(write(sql), sql);
        }
    }

    // ---------------------------------------------------------------- key comparison

    @Test
    void keyValuesCompareAsSqlMight() {
        assertTrue(Footprints.mayBeEqual(8L, new BigDecimal("8.0")));
        assertFalse(Footprints.mayBeEqual(7L, 8L));
        assertFalse(Footprints.mayBeEqual(new BigDecimal("1.5"), 2L));
        assertTrue(Footprints.mayBeEqual("open", "OPEN  "));
        assertFalse(Footprints.mayBeEqual("open", "closed"));
        assertTrue(Footprints.mayBeEqual("7", 7L));
        assertTrue(Footprints.mayBeEqual(true, 1L));
        assertFalse(Footprints.mayBeEqual(true, false));
        assertTrue(Footprints.mayBeEqual(null, 1L));
        assertTrue(Footprints.mayBeEqual("\u00e9t\u00e9", "ete")); // accent-insensitive collations
    }

    @Test
    void plainListingsMapTheirRowsToTheTablesRows() {
        RowIdentity listing = only(read("SELECT id, name, max_bid FROM items WHERE category = ? AND end_date >= ?"
                + " ORDER BY end_date LIMIT 25")).rows();
        assertEquals(new RowIdentity(java.util.Map.of("id", 0, "name", 1, "max_bid", 2), Set.of("category", "end_date")),
                listing);
        Footprint join = read("SELECT i.id, i.name, u.nickname AS who FROM items i JOIN users u ON i.seller = u.id"
                + " WHERE u.region = ? ORDER BY who");
        // a bare alias orders by its column, or by a column of that name of any table (engines differ)
        assertEquals(new RowIdentity(java.util.Map.of("id", 0, "name", 1), Set.of("seller", "who")),
                table(join, "items").rows());
        assertEquals(new RowIdentity(java.util.Map.of("nickname", 2), Set.of("id", "region", "nickname", "who")),
                table(join, "users").rows());
    }

    @Test
    void readsWhoseRowsDoNotMapToRowsHaveNoRowIdentity() {
        for (String sql : List.of("SELECT COUNT(*) FROM items", "SELECT category, MAX(max_bid) FROM items GROUP BY category",
                "SELECT DISTINCT name FROM items", "SELECT id, max_bid + 1 FROM items", "SELECT * FROM items",
                "SELECT id FROM items WHERE id IN (SELECT item_id FROM bids)", "SELECT id, name FROM items ORDER BY 2",
                "SELECT a.id FROM items a JOIN items b ON a.id = b.parent",
                "SELECT id FROM items UNION SELECT id FROM old_items", "SELECT id FROM items i JOIN users u ON i.seller = u.id")) {
            Footprint f = read(sql);
            assertNotNull(f, sql);
            f.tables().forEach(t -> assertNull(t.rows(), sql + ": " + t));
        }
    }
}
