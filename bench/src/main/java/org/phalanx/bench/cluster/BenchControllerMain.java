package org.phalanx.bench.cluster;

import java.nio.file.Path;
import java.util.List;
import org.apache.logging.log4j.LogManager;
import org.phalanx.controller.Controller;
import org.phalanx.controller.config.VirtualDatabaseConfig;

/**
 * How the harness starts a controller process: exactly what {@code bin/phalanx controller}
 * does ({@link Controller#fromConfig}, start, stop in order on SIGTERM), plus one daemon thread
 * that publishes the result caches' counters and the answer times to the harness
 * ({@link CacheCounters}; the same figures are on JMX, this keeps the harness free of a JMX client).
 */
public final class BenchControllerMain {
    static {
        org.phalanx.controller.LoggingSetup.useControllerConfiguration(); // before anything logs
    }

    private BenchControllerMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: BenchControllerMain <controller.xml>");
            System.exit(2);
        }
        Controller controller = Controller.fromConfig(Path.of(args[0]));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            controller.stop();
            LogManager.shutdown();
        }, "phalanx-shutdown"));
        try {
            controller.start();
        } catch (Exception e) {
            System.err.println("phalanx: the controller cannot start: " + e);
            System.exit(1);
        }
        String file = System.getProperty(CacheCounters.PROPERTY);
        if (file != null) {
            List<String> names = controller.config().virtualDatabases().stream().map(VirtualDatabaseConfig::name).toList();
            CacheCounters.publish(controller, names, Path.of(file));
        }
    }
}
