package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** PostgreSQL's array text read into pgjdbc's element classes, and Java arrays written back as PostgreSQL reads them. */
class PhalanxArrayTest {
    @Test
    void elementsAreReadAsTheColumnsTypeGivesThem() throws SQLException {
        assertArrayEquals(new Integer[] {1, null, -3}, (Integer[]) PhalanxArray.fromText("_int4", "{1,NULL,-3}").getArray());
        assertArrayEquals(new Long[] {}, (Long[]) PhalanxArray.fromText("_int8", "{}").getArray());
        assertArrayEquals(new Integer[][] {{1, 2}, {3, 4}},
                (Integer[][]) PhalanxArray.fromText("_int4", "{{1,2},{3,4}}").getArray());
        assertArrayEquals(new String[] {"a b", "say \"hi\"", "back\\slash", "", "NULL", null, "{x,y}"},
                (String[]) PhalanxArray.fromText("_text",
                        "{\"a b\",\"say \\\"hi\\\"\",\"back\\\\slash\",\"\",\"NULL\",NULL,\"{x,y}\"}").getArray());
        assertArrayEquals(new Boolean[] {true, false}, (Boolean[]) PhalanxArray.fromText("_bool", "{t,f}").getArray());
        assertArrayEquals(new BigDecimal[] {new BigDecimal("12.50")},
                (BigDecimal[]) PhalanxArray.fromText("_numeric", "{12.50}").getArray());
        UUID id = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
        assertArrayEquals(new UUID[] {id}, (UUID[]) PhalanxArray.fromText("_uuid", "{" + id + "}").getArray());
        assertArrayEquals(new Timestamp[] {Timestamp.from(Instant.parse("2020-01-01T05:00:00.5Z"))},
                (Timestamp[]) PhalanxArray.fromText("_timestamptz", "{\"2020-01-01 10:00:00.5+05\"}").getArray());
        assertArrayEquals(new Integer[] {7}, (Integer[]) PhalanxArray.fromText("_int4", "[0:0]={7}").getArray(),
                "a lower bound other than 1 is written before the elements");
        assertArrayEquals(new String[] {"x"}, (String[]) PhalanxArray.fromText("_mood", "{x}").getArray(),
                "an unknown element type (an enum) is text");

        PhalanxArray ints = PhalanxArray.fromText("_int4", "{10,20,30}");
        assertEquals("int4", ints.getBaseTypeName());
        assertEquals(Types.INTEGER, ints.getBaseType());
        assertArrayEquals(new Integer[] {20, 30}, (Integer[]) ints.getArray(2, 2));
        assertThrows(SQLException.class, () -> ints.getArray(3, 2));
    }

    @Test
    void malformedTextIsAnError() {
        for (String bad : List.of("1,2", "{1,2", "{\"a}", "{1}x", "{abc}")) {
            SQLException e = assertThrows(SQLException.class, () -> PhalanxArray.fromText("_int4", bad), bad);
            assertEquals("22P02", e.getSQLState(), bad);
        }
    }

    @Test
    void javaArraysAreWrittenAsPostgresReadsThem() throws SQLException {
        assertEquals("{1,2,NULL}", PostgresArrayText.format(new Integer[] {1, 2, null}));
        assertEquals("{1,2}", PostgresArrayText.format(new int[] {1, 2}));
        assertEquals("{{1,2},{3,4}}", PostgresArrayText.format(new int[][] {{1, 2}, {3, 4}}));
        assertEquals("{plain,\"a b\",\"q\\\"x\",\"b\\\\s\",\"\",\"null\",\"{}\",\"a,b\"}",
                PostgresArrayText.format(new String[] {"plain", "a b", "q\"x", "b\\s", "", "null", "{}", "a,b"}));
        assertEquals("{0.10}", PostgresArrayText.format(new BigDecimal[] {new BigDecimal("0.10")}));
        assertEquals("{}", PhalanxArray.of("integer", new Object[0]).text());
        PhalanxArray made = PhalanxArray.of("integer", new Object[] {1, 2});
        assertEquals("int4", made.getBaseTypeName(), "SQL type names are PostgreSQL's");

        String[] odd = {"a b", "q\"x", "b\\s", "", "NULL", null, "{x}", "é"};
        assertEquals(Arrays.asList(odd), Arrays.asList((String[]) PhalanxArray.fromText("_text",
                PostgresArrayText.format(odd)).getArray()), "what is written reads back the same");
    }
}
