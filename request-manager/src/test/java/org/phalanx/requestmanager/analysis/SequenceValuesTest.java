package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class SequenceValuesTest {

    private static SequenceValues given(long... keys) {
        SequenceValues v = new SequenceValues();
        v.chosen("parent_id_seq", keys);
        return v;
    }

    @Test
    void callsBecomeTheSessionsValues() {
        SequenceValues v = given(4, 5);
        assertEquals("INSERT INTO child (parent_id) VALUES (5)",
                v.substitute("INSERT INTO child (parent_id) VALUES (currval('parent_id_seq'))", false));
        assertEquals("SELECT 5, 5", v.substitute("SELECT currval('public.parent_id_seq'::regclass), lastval()", false));
        String other = "SELECT currval('other_seq')";
        assertSame(other, v.substitute(other, false));
    }

    /** On PostgreSQL backends: a bigint, and a whole column of the select list keeps the function's name. */
    @Test
    void onPostgresqlAsTheBigintColumnTheFunctionGives() {
        SequenceValues v = given(7);
        assertEquals("SELECT CAST(7 AS bigint) AS currval", v.substitute("SELECT currval('parent_id_seq')", true));
        assertEquals("select id, CAST(7 AS bigint) AS lastval from t",
                v.substitute("select id, lastval() from t", true));
        assertEquals("SELECT CAST(7 AS bigint) AS currval;", v.substitute("SELECT currval('parent_id_seq');", true));
        assertEquals("SELECT CAST(7 AS bigint) AS k", v.substitute("SELECT currval('parent_id_seq') AS k", true));
        assertEquals("SELECT CAST(7 AS bigint) + 1", v.substitute("SELECT currval('parent_id_seq') + 1", true));
        assertEquals("SELECT coalesce(1, CAST(7 AS bigint))", v.substitute("SELECT coalesce(1, lastval())", true));
        assertEquals("DELETE FROM t WHERE id = CAST(7 AS bigint)", v.substitute("DELETE FROM t WHERE id = lastval()", true));
    }
}
