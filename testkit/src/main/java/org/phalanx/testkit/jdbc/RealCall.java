package org.phalanx.testkit.jdbc;

import java.sql.SQLException;

/** A call on the real driver's object, which the wrappers run inside an emulated server's slot or directly. */
@FunctionalInterface
interface RealCall<T> {
    T call() throws SQLException;
}
