package org.phalanx.requestmanager.write;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What keeps a single-row write at table level before the table's traits are even looked at: function calls. */
class RowLockingTest {
    @Test
    void columnListsAndValuesAreNotCallsButFunctionsAre() {
        assertFalse(RowLocking.callsFunctions("UPDATE acc SET bal = bal + ? WHERE id = ?", "acc"));
        assertFalse(RowLocking.callsFunctions("INSERT INTO acc (id, bal) VALUES (?, ?)", "acc"));
        assertFalse(RowLocking.callsFunctions("INSERT INTO \"acc\" (id, bal) VALUES (1, 'f(x)')", "acc"));
        assertFalse(RowLocking.callsFunctions("INSERT INTO public.acc (id) VALUES (1)", "acc"));
        assertFalse(RowLocking.callsFunctions("UPDATE acc SET bal = (bal + 1) * 2 WHERE id = 3", "acc"));
        assertTrue(RowLocking.callsFunctions("UPDATE acc SET bal = audit(id) WHERE id = 3", "acc"));
        assertTrue(RowLocking.callsFunctions("INSERT INTO acc (id, bal) VALUES (?, lower(?))", "acc"));
        assertTrue(RowLocking.callsFunctions("DELETE FROM acc WHERE id = 1 AND next_row_of (id) > 0", "acc"));
    }
}
