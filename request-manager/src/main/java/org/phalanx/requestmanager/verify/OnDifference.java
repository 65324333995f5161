package org.phalanx.requestmanager.verify;

import java.util.Locale;

/** What a verification does about the replicas a majority outvoted. */
public enum OnDifference {
    /** Report only (log, notifications, the report). */
    REPORT,
    /** Take the outvoted replicas out of service, their data in doubt (a restored dump brings them back). */
    DISABLE,
    /** Disable them, then rebuild each from a dump of a majority replica and replay the log. */
    REBUILD;

    /** From the configuration's and the operators' spelling: report, disable, rebuild (any case). */
    public static OnDifference of(String text) {
        return valueOf(text.trim().toUpperCase(Locale.ROOT));
    }
}
