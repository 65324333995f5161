package org.phalanx.requestmanager.cache;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.phalanx.requestmanager.config.CacheConfig.Granularity;
import org.phalanx.requestmanager.analysis.RowIdentity;

/** Value granularity with a stored result's rows. */
class ConflictsTest {
    /** SELECT id, name, max_bid FROM items WHERE category = ? ORDER BY end_date: rows of category 3. */
    private static final Touch LISTING = new Touch("items", Set.of("id", "name", "max_bid", "category", "end_date"),
            Map.of("category", 3L), false,
            new RowIdentity(Map.of("id", 0, "name", 1, "max_bid", 2), Set.of("category", "end_date")));
    private static final List<Object[]> ROWS = List.of(new Object[] {7, "lamp", 12.5}, new Object[] {9L, "desk", null});

    private static boolean changes(Touch write) {
        return Conflicts.mayChange(Granularity.VALUE, write, LISTING, ROWS);
    }

    @Test
    void anUpdateOfARowNotInTheResultChangesNothing() {
        assertFalse(changes(new Touch("items", Set.of("max_bid", "nb_of_bids"), Map.of("id", 8L), false)));
        assertTrue(changes(new Touch("items", Set.of("max_bid"), Map.of("id", 7L), false)), "row 7 is shown (an Integer)");
        assertTrue(changes(new Touch("items", Set.of("max_bid"), Map.of("id", 9L), false)));
        assertTrue(changes(new Touch("items", Set.of("max_bid"), Map.of("id", "9"), false)), "text may equal a number");
    }

    @Test
    void rowsDoNotHelpWhenTheWriteMayMoveRowsInOrOut() {
        assertTrue(changes(new Touch("items", Set.of("end_date"), Map.of("id", 8L), false)), "changes the ORDER BY column");
        assertTrue(changes(new Touch("items", Set.of("category"), Map.of("id", 8L), false)), "changes the WHERE column");
        assertTrue(changes(new Touch("items", null, Map.of("id", 8L), true)), "an insert or delete");
        assertTrue(changes(new Touch("items", null, Map.of("id", 8L), false)), "an update of unknown columns");
        assertTrue(changes(new Touch("items", Set.of("max_bid"), Map.of("seller", 8L), false)), "a key not shown");
        assertTrue(changes(new Touch("items", Set.of("max_bid"), Map.of(), false)), "no key");
        assertTrue(Conflicts.mayChange(Granularity.COLUMN, new Touch("items", Set.of("max_bid"), Map.of("id", 8L), false),
                LISTING, ROWS), "column granularity does not look at rows");
    }

    @Test
    void keysStillDecideFirst() {
        assertFalse(changes(new Touch("items", Set.of("max_bid"), Map.of("id", 7L, "category", 4L), false)),
                "restricted to another category: whatever the rows say");
    }
}
