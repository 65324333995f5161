package org.phalanx.console;

import java.util.concurrent.Callable;

/**
 * Runs a long operator action (backup, restore, enable) with a progress bar when a terminal is
 * watching: drawn from the controller's progress notifications, or ticking seconds when the
 * operation reports none.
 */
final class LongOperation {
    private LongOperation() {
    }

    static <T> T run(Context ctx, String vdb, String operation, Callable<T> action) throws Exception {
        if (!ctx.showProgress) {
            return action.call();
        }
        ProgressBar bar = new ProgressBar(ctx.err, operation);
        boolean[] reported = {false};
        Thread ticker = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(1000);
                    synchronized (reported) {
                        if (!reported[0]) {
                            bar.draw(0, -1, "");
                        }
                    }
                }
            } catch (InterruptedException done) {
                // the operation ended
            }
        }, "progress-ticker");
        ticker.setDaemon(true);
        try (AutoCloseable listening = ctx.client().listen(vdb, (n, h) -> {
            if ("phalanx.operation.progress".equals(n.getType())) {
                synchronized (reported) {
                    reported[0] = true;
                }
            }
            bar.handleNotification(n, h);
        })) {
            ticker.start();
            return action.call();
        } finally {
            ticker.interrupt();
            bar.finish();
        }
    }
}
