package org.phalanx.console;

import java.io.PrintWriter;
import javax.management.Notification;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Draws the progress of a long operation from the controller's progress notifications, on one
 * line redrawn in place: {@code [#########-----------]  45%  4500/10000 rows}. Operations that
 * report no progress (enable: the replay) show the time elapsed instead.
 */
final class ProgressBar implements NotificationListener {
    private static final int WIDTH = 30;

    private final PrintWriter out;
    private final String operation;
    private final long start = System.nanoTime();
    private boolean drawn;

    ProgressBar(PrintWriter out, String operation) {
        this.out = out;
        this.operation = operation;
    }

    @Override
    public void handleNotification(Notification n, Object handback) {
        if (!"phalanx.operation.progress".equals(n.getType()) || !(n.getUserData() instanceof CompositeData d)
                || !operation.equals(d.get("operation"))) {
            return;
        }
        draw((Long) d.get("done"), (Long) d.get("total"), (String) d.get("unit"));
    }

    synchronized void draw(long done, long total, String unit) {
        out.print("\r" + render(done, total, unit, (System.nanoTime() - start) / 1_000_000_000));
        out.flush();
        drawn = true;
    }

    /** The line for done of total (total -1: unknown). */
    static String render(long done, long total, String unit, long seconds) {
        if (total <= 0) {
            return "[" + "=".repeat((int) (seconds % WIDTH)) + ">" + " ".repeat(WIDTH - 1 - (int) (seconds % WIDTH))
                    + "]  " + (done > 0 ? done + " " + unit + ", " : "") + seconds + " s";
        }
        int filled = (int) Math.min(WIDTH, done * WIDTH / total);
        return "[" + "#".repeat(filled) + "-".repeat(WIDTH - filled) + "]  " + String.format("%3d%%", done * 100 / total)
                + "  " + done + "/" + total + " " + unit;
    }

    /** Ends the bar's line, so what follows starts on a fresh one. */
    synchronized void finish() {
        if (drawn) {
            out.println();
            out.flush();
        }
    }
}
