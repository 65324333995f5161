package org.phalanx.requestmanager.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A row's name is the same whatever Java type carries its integer key, as the engines compare them. */
class RowKeysTest {
    @Test
    void anIntegerKeyNamesOneRowWhateverItsJavaType() {
        String row = RowKeys.of("t", 5);
        for (Object same : List.of(5L, (short) 5, (byte) 5, "5", " 5 ", 5.0, new BigDecimal("5.00"), BigInteger.valueOf(5))) {
            assertEquals(row, RowKeys.of("t", same), same.getClass().getSimpleName());
        }
        assertEquals(RowKeys.of("t", List.of(Long.MIN_VALUE, 7)),
                RowKeys.of("t", List.of(new BigInteger(Long.toString(Long.MIN_VALUE)), "7")));
    }

    @Test
    void aValueThatIsNoIntegerNamesNoRow() {
        assertNull(RowKeys.of("t", 5.5));
        assertNull(RowKeys.of("t", "five"));
        assertNull(RowKeys.of("t", List.of(1, "x")));
    }
}
