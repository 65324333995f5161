package org.phalanx.controller;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.controller.config.ConfigException;

import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.sql.SQLException;

/**
 * {@code java org.phalanx.controller.ControllerMain controller.xml}: runs a controller in the
 * foreground until the process is told to stop (SIGTERM, Ctrl-C).
 *
 * <p>Exit codes: 2 for a usage or configuration error (the problems on stderr, each as
 * {@code file:line:column: reason}) or what the machine refused at start (the port is taken, a
 * folder is not writable), in one line; 1 for a failure of the controller itself (a bug: its stack
 * trace is logged).
 */
public final class ControllerMain {
    static {
        LoggingSetup.useControllerConfiguration(); // before anything logs
    }

    static final int USAGE_OR_CONFIG_ERROR = 2;
    static final int START_FAILED = 1;

    private ControllerMain() {
    }

    public static void main(String[] args) {
        Controller[] started = new Controller[1];
        int status = launch(args, System.err, c -> started[0] = c);
        if (status != 0) {
            System.exit(status);
        }
        // runs until stopped: by SIGTERM or Ctrl-C (the shutdown hook), or over JMX (shutdown operation);
        // then exit, as RMI threads would otherwise keep the process alive
        started[0].stopped().join();
        System.exit(0);
    }

    /** Starts a controller from the arguments; 0 when it is running. */
    static int launch(String[] args, PrintStream err) {
        return launch(args, err, c -> { });
    }

    private static int launch(String[] args, PrintStream err, java.util.function.Consumer<Controller> started) {
        if (args.length != 1) {
            err.println("usage: phalanx controller <controller.xml>");
            return USAGE_OR_CONFIG_ERROR;
        }
        Controller controller;
        try {
            controller = Controller.fromConfig(Path.of(args[0]));
        } catch (ConfigException e) {
            err.println(e.getMessage());
            return USAGE_OR_CONFIG_ERROR;
        } catch (InvalidPathException e) {
            err.println(args[0] + ": not a file path");
            return USAGE_OR_CONFIG_ERROR;
        }
        // registered before start so a SIGTERM during a slow start still shuts down in order
        // (stop waits for start to finish); the hook also flushes the log, whose own hook is off
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            controller.stop();
            LogManager.shutdown();
        }, "phalanx-shutdown"));
        try {
            controller.start();
            started.accept(controller);
            return 0;
        } catch (SQLException | java.io.IOException e) {
            // what the machine refused (a port taken, a folder not writable): one line says it all
            Logger log = LogManager.getLogger(ControllerMain.class);
            log.error("Phalanx controller failed to start: {}", describe(e));
            log.debug("start failure", e);
            err.println("phalanx: the controller cannot start: " + describe(e));
            return USAGE_OR_CONFIG_ERROR;
        } catch (RuntimeException e) {
            Logger log = LogManager.getLogger(ControllerMain.class);
            log.error("Phalanx controller failed to start", e); // a fault of ours: its stack trace helps
            err.println("phalanx: the controller cannot start: " + describe(e));
            return START_FAILED;
        }
    }

    private static String describe(Exception e) {
        if (e instanceof SQLException s) {
            return s.getMessage() + " (SQLState " + s.getSQLState() + ")";
        }
        return e instanceof RuntimeException ? e.toString() : e.getMessage();
    }
}
