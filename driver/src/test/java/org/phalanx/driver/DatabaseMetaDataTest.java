package org.phalanx.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Types;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.phalanx.protocol.ColumnInfo;
import org.phalanx.protocol.MessageWriter;
import org.phalanx.protocol.MetadataRequest;
import org.phalanx.protocol.SqlNull;

class DatabaseMetaDataTest {
    private static final SqlNull NULL = new SqlNull(Types.VARCHAR);

    private FakeServer server;
    private Connection connection;
    private DatabaseMetaData md;

    /** getImportedKeys returns two foreign keys of "orders": to "customers" and to "products". */
    static final class Keys extends FakeServer.Behaviour {
        @Override
        MessageWriter metadata(MetadataRequest m, FakeServer.Session s) {
            if (!m.method().equals("getImportedKeys")) {
                return super.metadata(m, s);
            }
            List<ColumnInfo> columns = List.of(ColumnInfo.simple("PKTABLE_CAT", Types.VARCHAR, "VARCHAR"),
                    ColumnInfo.simple("PKTABLE_SCHEM", Types.VARCHAR, "VARCHAR"),
                    ColumnInfo.simple("PKTABLE_NAME", Types.VARCHAR, "VARCHAR"),
                    ColumnInfo.simple("FKTABLE_NAME", Types.VARCHAR, "VARCHAR"));
            return s.result(columns, List.<Object[]>of(new Object[] {NULL, "public", "customers", "orders"},
                    new Object[] {NULL, "public", "products", "orders"}).iterator(), 0, true);
        }
    }

    @BeforeEach
    void start() throws Exception {
        server = new FakeServer().with(new Keys());
        connection = DriverManager.getConnection(server.url());
        md = connection.getMetaData();
    }

    @AfterEach
    void stop() throws Exception {
        connection.close();
        server.close();
    }

    private MetadataRequest lastRequest() {
        return (MetadataRequest) server.received.get(server.received.size() - 1);
    }

    @Test
    void schemaQuestionsTravelAsMetadataRequestsNamedAfterTheMethod() throws Exception {
        ResultSet rs = md.getTables(null, "public", "t%", new String[] {"TABLE", "VIEW"});
        assertEquals(new MetadataRequest("getTables", List.of(NULL, "public", "t%", "TABLE,VIEW")), lastRequest());
        assertEquals(ResultSet.TYPE_SCROLL_INSENSITIVE, rs.getType());
        assertNull(rs.getStatement());
        assertTrue(rs.last());
        assertEquals("t2", rs.getString("TABLE_NAME"));

        md.getTables(null, null, null, null);
        assertEquals(List.of(NULL, NULL, NULL, NULL), lastRequest().args());
        md.getColumns("c", "s", "t", "%");
        assertEquals(new MetadataRequest("getColumns", List.of("c", "s", "t", "%")), lastRequest());
        md.getPrimaryKeys(null, null, "t");
        assertEquals(new MetadataRequest("getPrimaryKeys", List.of(NULL, NULL, "t")), lastRequest());
        md.getIndexInfo(null, null, "t", true, false);
        assertEquals(new MetadataRequest("getIndexInfo", List.of(NULL, NULL, "t", true, false)), lastRequest());
        md.getExportedKeys(null, null, "t");
        assertEquals("getExportedKeys", lastRequest().method());
        md.getSchemas();
        assertEquals(new MetadataRequest("getSchemas", List.of()), lastRequest());
        md.getSchemas("c", "p%");
        assertEquals(new MetadataRequest("getSchemas", List.of("c", "p%")), lastRequest());
        for (String method : List.of("getCatalogs", "getTableTypes", "getTypeInfo")) {
            switch (method) {
                case "getCatalogs" -> md.getCatalogs();
                case "getTableTypes" -> md.getTableTypes();
                default -> md.getTypeInfo();
            }
            assertEquals(new MetadataRequest(method, List.of()), lastRequest());
        }
    }

    @Test
    void crossReferenceFiltersTheImportedKeysByParentTable() throws Exception {
        ResultSet rs = md.getCrossReference(null, null, "products", null, "public", "orders");
        assertEquals(new MetadataRequest("getImportedKeys", List.of(NULL, "public", "orders")), lastRequest());
        assertTrue(rs.next());
        assertEquals("products", rs.getString("PKTABLE_NAME"));
        assertFalse(rs.next());
    }

    @Test
    void capabilitiesDescribeTheDriver() throws Exception {
        assertEquals("Phalanx JDBC Driver", md.getDriverName());
        assertEquals(Driver.VERSION, md.getDriverVersion());
        assertEquals(4, md.getJDBCMajorVersion());
        assertEquals(2, md.getJDBCMinorVersion());
        assertTrue(md.supportsTransactions());
        assertTrue(md.supportsBatchUpdates());
        assertTrue(md.supportsGetGeneratedKeys());
        assertTrue(md.supportsSavepoints());
        assertEquals(Connection.TRANSACTION_READ_COMMITTED, md.getDefaultTransactionIsolation());
        assertTrue(md.supportsResultSetType(ResultSet.TYPE_FORWARD_ONLY));
        assertTrue(md.supportsResultSetType(ResultSet.TYPE_SCROLL_INSENSITIVE));
        assertFalse(md.supportsResultSetType(ResultSet.TYPE_SCROLL_SENSITIVE));
        assertFalse(md.supportsResultSetConcurrency(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE));
        assertEquals("\"", md.getIdentifierQuoteString());
        assertEquals(connection, md.getConnection());

        ResultSet procedures = md.getProcedures(null, null, "%");
        assertFalse(procedures.next());
        assertEquals("PROCEDURE_NAME", procedures.getMetaData().getColumnName(3));
    }
}
