package org.phalanx.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.ConfigurationSource;
import org.apache.logging.log4j.core.config.xml.XmlConfiguration;
import org.junit.jupiter.api.Test;

/** The controller's logging configuration, loaded as the controller loads it. */
class LoggingSetupTest {
    /**
     * MariaDB Connector/J's server errors are not repeated at WARN in the controller's log (every
     * client error, and a missing database every 5 s while a pool retries); the logger is the
     * driver's class, which must still exist under that name.
     */
    @Test
    void mariaDbServerErrorsAreNotLoggedByTheDriver() throws Exception {
        String errorPacket = "org.mariadb.jdbc.message.server.ErrorPacket";
        Class.forName(errorPacket);
        // read on its own, not installed: the tests' own logging stays as it is
        XmlConfiguration config = new XmlConfiguration(new LoggerContext("logging-setup-test"),
                ConfigurationSource.fromResource(LoggingSetup.CONFIGURATION, getClass().getClassLoader()));
        config.initialize();
        assertEquals(Level.ERROR, config.getLoggerConfig(errorPacket).getLevel());
        assertEquals(Level.INFO, config.getLoggerConfig("org.phalanx").getLevel());
    }
}
