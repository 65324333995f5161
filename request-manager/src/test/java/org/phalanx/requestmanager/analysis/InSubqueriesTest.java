package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class InSubqueriesTest {
    private static List<String> selects(String sql) {
        return InSubqueries.of(sql).stream().map(s -> s.select(sql)).toList();
    }

    @Test
    void theInSubqueriesOfAStatement() {
        assertEquals(List.of("select temptable_.id from HT_vehicle temptable_"),
                selects("update car c1_0 set doors=(c1_0.doors+1) where id in (select temptable_.id from HT_vehicle temptable_)"));
        assertEquals(List.of("SELECT a FROM x WHERE b IN (SELECT c FROM y)", " select id from z "),
                selects("DELETE FROM t WHERE id IN (SELECT a FROM x WHERE b IN (SELECT c FROM y)) OR k IN ( select id from z )"));
        assertEquals(List.of(), selects("SELECT * FROM t WHERE id IN (1, 2) AND v = 'in (select 1)' -- in (select 2)"));
        assertEquals(List.of(), selects("UPDATE t SET v = (SELECT max(id) FROM x)"), "only IN lists");
    }
}
