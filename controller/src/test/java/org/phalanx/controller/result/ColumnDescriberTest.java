package org.phalanx.controller.result;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.phalanx.protocol.ColumnInfo;

class ColumnDescriberTest {
    @Test
    void columnsAreDescribedEvenForExpressions() throws SQLException {
        try (Connection db = DriverManager.getConnection("jdbc:sqlite::memory:"); Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT 1 + 1 AS two, 'a' || 'b'")) {
            List<ColumnInfo> columns = ColumnDescriber.describe(rs.getMetaData());
            assertEquals("two", columns.get(0).label());
            assertEquals(2, columns.size());
        }
    }
}
