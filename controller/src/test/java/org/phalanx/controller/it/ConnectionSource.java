package org.phalanx.controller.it;

import java.sql.Connection;
import java.sql.SQLException;

/** Where a workload's clients get their connections: a cluster, a tree of controllers. */
@FunctionalInterface
interface ConnectionSource {
    Connection connect() throws SQLException;
}
