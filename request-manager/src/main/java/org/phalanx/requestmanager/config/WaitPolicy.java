package org.phalanx.requestmanager.config;

/** When a write, commit or rollback sent to several backends is answered. */
public enum WaitPolicy {
    /** As soon as one backend has succeeded. */
    FIRST,
    /** Once more than half of the backends it was sent to have succeeded. */
    MAJORITY,
    /** Once every backend it was sent to has finished. */
    ALL
}
