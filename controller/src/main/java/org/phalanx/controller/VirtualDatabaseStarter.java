package org.phalanx.controller;

import org.phalanx.controller.config.VirtualDatabaseConfig;
import org.phalanx.controller.vdb.VirtualDatabase;

import java.sql.SQLException;

/** Brings a configured virtual database up; the seam lets tests host one without a request manager. */
@FunctionalInterface
interface VirtualDatabaseStarter {
    VirtualDatabase start(VirtualDatabaseConfig config) throws SQLException;
}
