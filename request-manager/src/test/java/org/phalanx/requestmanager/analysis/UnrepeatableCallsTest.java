package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class UnrepeatableCallsTest {
    @Test
    void postgresClockInputsAreFoundInLiteralsOnly() {
        assertEquals("'now'", UnrepeatableCalls.clockLiteral("INSERT INTO t (id, at) VALUES (1, 'now')"));
        assertEquals("' Today '", UnrepeatableCalls.clockLiteral("UPDATE t SET d = ' Today ' WHERE id = 1"));
        assertEquals("'tomorrow'", UnrepeatableCalls.clockLiteral("INSERT INTO t VALUES ('a', 'x''y', 'tomorrow'::date)"));
        assertEquals("'yesterday'", UnrepeatableCalls.clockLiteral("DELETE FROM t WHERE d < DATE 'yesterday'"));
        assertNull(UnrepeatableCalls.clockLiteral("INSERT INTO t VALUES (?, ?)"));
        assertNull(UnrepeatableCalls.clockLiteral("INSERT INTO t VALUES ('nowhere', 'know', 'now''s')"));
        assertNull(UnrepeatableCalls.clockLiteral("INSERT INTO t VALUES (1) -- 'now'"));
        assertNull(UnrepeatableCalls.clockLiteral("INSERT INTO \"it's\" VALUES (now(), 'epoch', 'infinity')"));
        assertNull(UnrepeatableCalls.clockLiteral("/* don't */ INSERT INTO t VALUES (1)"));
    }
}
