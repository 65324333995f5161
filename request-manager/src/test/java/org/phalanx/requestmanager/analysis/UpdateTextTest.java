package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Set;
import org.junit.jupiter.api.Test;

class UpdateTextTest {

    @Test
    void findsTheSetListAndWhatItAssigns() {
        UpdateText u = UpdateText.of("UPDATE m AS x SET x.v = x.v + 1, `Note` = 'a=b, c' WHERE x.id = f(1, 2)");
        assertEquals(Set.of("v", "note"), u.assigned());
        assertEquals("UPDATE m AS x SET changed = '2026-01-01', x.v = x.v + 1, `Note` = 'a=b, c' WHERE x.id = f(1, 2)",
                u.withFirst("changed = '2026-01-01'"));
        assertEquals(Set.of("v"), UpdateText.of("update db.m set v = (select max(v) from n where n.id = 1)").assigned());
    }

    @Test
    void multiTableUpdatesAreNotCompleted() {
        assertNull(UpdateText.of("UPDATE a JOIN b ON a.id = b.id SET a.v = b.v"));
        assertNull(UpdateText.of("UPDATE a, b SET a.v = b.v WHERE a.id = b.id"));
        assertNull(UpdateText.of("UPDATE LOW_PRIORITY a SET v = 1"));
        assertNull(UpdateText.of("INSERT INTO a VALUES (1)"));
    }
}
