package org.phalanx.requestmanager.recovery;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import javax.sql.rowset.RowSetMetaDataImpl;
import org.junit.jupiter.api.Test;
import org.phalanx.recoverylog.GeneratedKeys;
import org.phalanx.requestmanager.api.Result;

class RememberedKeysTest {

    @Test
    void aBatchsKeysAreSplitByEachElementsCount() throws Exception {
        GeneratedKeys[] each = RememberedKeys.perElement(new long[] {1, 0, 2}, keys(7, 8, 9));
        assertEquals(List.of(List.of(7L)), each[0].rows());
        assertEquals(List.of(), each[1].rows(), "an element that inserted nothing generated no key");
        assertEquals(List.of(List.of(8L), List.of(9L)), each[2].rows());
        assertEquals("id", each[2].columns().get(0).label());
    }

    @Test
    void aBatchThatGeneratedNoKeysGeneratedNoneForAnyElement() throws Exception {
        GeneratedKeys[] each = RememberedKeys.perElement(new long[] {1, 1}, keys());
        assertEquals(List.of(), each[0].rows());
        assertEquals(List.of(), each[1].rows());
    }

    @Test
    void keysThatCannotBeToldApartAreNotRemembered() throws Exception {
        assertArrayEquals(new GeneratedKeys[2], RememberedKeys.perElement(new long[] {1, -2}, keys(7, 8)),
                "a count not known (SUCCESS_NO_INFO)");
        assertArrayEquals(new GeneratedKeys[2], RememberedKeys.perElement(new long[] {1, 1}, keys(7, 8, 9)),
                "counts that do not add up to the rows");
        assertArrayEquals(new GeneratedKeys[1], RememberedKeys.perElement(new long[] {1}, null));
    }

    private static Result.Cached keys(long... values) throws Exception {
        RowSetMetaDataImpl md = new RowSetMetaDataImpl();
        md.setColumnCount(1);
        md.setColumnLabel(1, "id");
        md.setColumnType(1, Types.BIGINT);
        md.setColumnTypeName(1, "INTEGER");
        List<Object[]> rows = new ArrayList<>();
        for (long v : values) {
            rows.add(new Object[] {v});
        }
        return new Result.Cached(md, rows);
    }
}
