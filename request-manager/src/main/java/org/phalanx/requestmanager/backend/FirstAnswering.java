package org.phalanx.requestmanager.backend;

import java.sql.SQLException;
import java.util.List;

/**
 * The controller's own reads before a write (a table's defaults, its key column), asked of the
 * first backend that answers. One whose connection is lost and that no longer connects leaves
 * service to catch up and the next is asked: asked of it alone, every write needing such a read
 * failed with its lost connection, the dead replica still in service, until something else
 * noticed it.
 */
public final class FirstAnswering {
    private FirstAnswering() {
    }

    /** A read of one backend. */
    @FunctionalInterface
    public interface Read<T> {
        T on(Backend b) throws SQLException;
    }

    /** The answer of the first of {@code backends} (at least one) that gives one. */
    public static <T> T read(List<Backend> backends, Read<T> read) throws SQLException {
        SQLException lost = null;
        for (Backend b : backends) {
            try {
                return read.on(b);
            } catch (SQLException e) {
                if (!BackendErrors.isConnectionFailure(e)
                        || !b.leaveUnlessItConnects("its connection was lost during a catalog read: " + e.getMessage())) {
                    throw e;
                }
                if (lost != null) {
                    e.addSuppressed(lost);
                }
                lost = e;
            }
        }
        if (lost == null) {
            throw new IllegalArgumentException("no backend to read from");
        }
        throw lost;
    }
}
