package org.phalanx.requestmanager.backend;

import java.sql.SQLException;
import org.phalanx.engine.SqlState;

/** Work skipped because its backend left service before the work started. */
public final class BackendDisabledException extends SQLException {
    public BackendDisabledException(String backend) {
        super("backend " + backend + " is disabled", SqlState.CONNECTION_DOES_NOT_EXIST.code());
    }
}
