package org.phalanx.bench.workload;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * What the clients of a closed loop do. A workload loads its dataset straight into a real
 * database ({@link #load}), then each client thread gets its own {@link Client} over its own
 * connection (direct or through Phalanx) and runs one request after another.
 */
public interface Workload {

    /** Short name, used in tables. */
    String name();

    /** The request classes reported separately (a request of class i is {@code requestClasses().get(i)}). */
    List<String> requestClasses();

    /** Creates the tables (dropping old ones) and fills them. Runs on a direct connection. */
    void load(Connection c) throws SQLException;

    /** A client over its own connection; {@code seed} makes its random choices reproducible. */
    Client client(Connection c, long seed) throws SQLException;

    /** One client thread's state. */
    interface Client {
        /** Picks the class of the next request. */
        int next();

        /** Runs one request of that class; leaves the connection usable after a failure. */
        void execute(int requestClass) throws SQLException;

        /** Called once the run is over, before the connection closes (e.g. to hand back a work table). */
        default void close() throws SQLException {
        }
    }
}
