package org.phalanx.requestmanager.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class CatalogQualifiersTest {
    @Test
    void namesQualifiedByTheVirtualDatabaseAreQualifiedByTheBackendsOwn() {
        assertEquals("CREATE TABLE `phalanx_lb1`.DATABASECHANGELOG (ID VARCHAR(255))",
                CatalogQualifiers.toBackend("CREATE TABLE vdb.DATABASECHANGELOG (ID VARCHAR(255))", "vdb", "phalanx_lb1", '`'));
        assertEquals("SELECT `db1`.t.c FROM `db1`.`t` JOIN `db1` . u ON 1 = 1",
                CatalogQualifiers.toBackend("SELECT VDB.t.c FROM `vdb`.`t` JOIN vdb . u ON 1 = 1", "vdb", "db1", '`'));
        assertEquals("CREATE TABLE p (c INT REFERENCES t(id))",
                CatalogQualifiers.toBackend("CREATE TABLE vdb.p (c INT REFERENCES \"vdb\" . t(id))", "vdb", null, '"'));
        assertEquals("SELECT `we``ird`.t.x", CatalogQualifiers.toBackend("SELECT vdb.t.x", "vdb", "we`ird", '`'));
    }

    @Test
    void otherUsesOfTheNameAreLeftAlone() {
        String sql = "SELECT vdb, t.vdb, x.vdb.y, 'vdb.t', \"vdb\" FROM vdb_log -- vdb.t\n WHERE a = 'vdb.' /* vdb.t */";
        assertSame(sql, CatalogQualifiers.toBackend(sql, "vdb", "db1", '`'));
        String none = "SELECT * FROM t";
        assertSame(none, CatalogQualifiers.toBackend(none, "vdb", "db1", '`'));
    }
}
