package org.phalanx.requestmanager.exec;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/** Closing backend resources once the work that used them is over. */
public final class Closeables {
    private static final Logger LOG = LogManager.getLogger(Closeables.class);

    private Closeables() {
    }

    /** Closes quietly: a close failing after the work is done changes nothing for the client. */
    public static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.debug("close failed: {}", e.getMessage());
            }
        }
    }
}
