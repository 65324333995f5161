package org.phalanx.controller;

/**
 * Points Log4j at the controller's own configuration ({@code phalanx-log4j2.xml}) unless the
 * operator named one. Log4j would otherwise pick by discovery among every {@code log4j2-test.xml}
 * and {@code log4j2.xml} on the classpath, and the jgroups-raft jar carries both: its test one,
 * found first, would silence the controller's INFO lines and let Log4j's shutdown hook end logging
 * before the controller has stopped. Call before anything logs (a main class's static initializer).
 */
public final class LoggingSetup {
    public static final String CONFIGURATION = "phalanx-log4j2.xml";

    private LoggingSetup() {
    }

    public static void useControllerConfiguration() {
        if (System.getProperty("log4j2.configurationFile") == null && System.getProperty("log4j.configurationFile") == null) {
            System.setProperty("log4j2.configurationFile", CONFIGURATION);
        }
    }
}
