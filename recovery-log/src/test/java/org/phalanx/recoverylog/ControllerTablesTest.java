package org.phalanx.recoverylog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which tables are the controller's, and the name of the record a controller above keeps in a nested one. */
class ControllerTablesTest {
    @Test
    void theRecordOfTheControllerAboveIsNamedAfterTheVirtualDatabaseItDescribes() {
        assertEquals("phalanx_upper_applied_sub1", ControllerTables.upperApplied("jdbc:phalanx://10.0.0.11:25322/sub1"));
        assertEquals("phalanx_upper_applied_shop_eu_2", ControllerTables.upperApplied(
                "jdbc:phalanx://a:1,b:2/Shop-EU.2?user=top&password=secret"), "a group's hosts, properties, case");
        assertEquals("phalanx_upper_applied_sub2", ControllerTables.upperApplied(
                "jdbc:faulty:sub2:jdbc:phalanx://127.0.0.1:1/sub2"), "through a wrapping driver");
    }

    /**
     * Hidden like the controller's own tables (metadata answers, schema learning), yet carried by
     * dumps: for the sub-controller it is data, to be restored with the rows it describes.
     */
    @Test
    void theRecordOfTheControllerAboveIsHiddenButDumped() {
        String upper = ControllerTables.upperApplied("jdbc:phalanx://h/sub1");
        assertTrue(ControllerTables.isControllerTable(upper));
        assertTrue(ControllerTables.isControllerTable(upper.toUpperCase(java.util.Locale.ROOT)));
        assertFalse(ControllerTables.isLeftOutOfDumps(upper));
        assertTrue(ControllerTables.isLeftOutOfDumps(ControllerTables.APPLIED));
        assertTrue(ControllerTables.isLeftOutOfDumps(ControllerTables.RESTORE_PREFIX + "old_1"));
        assertFalse(ControllerTables.isControllerTable("upper_applied"));
    }
}
