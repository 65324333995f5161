package org.phalanx.requestmanager.verify;

import java.sql.SQLException;
import java.util.List;

/**
 * Where disabling or rebuilding an outvoted replica may run: the controller runs it as an operator
 * action (one at a time with the others), so it never races an operator's restore or enable.
 */
@FunctionalInterface
public interface ActionGate {
    /** Runs them at once. */
    ActionGate DIRECT = Actions::run;

    /** Runs the actions, or refuses with an SQLException when they may not run now. */
    List<String> around(Actions actions) throws SQLException;

    /** The actions on the outvoted replicas; returns what was done, one line each. */
    @FunctionalInterface
    interface Actions {
        List<String> run() throws SQLException;
    }
}
