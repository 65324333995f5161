package org.phalanx.console;

import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.jline.terminal.Attributes;
import org.jline.terminal.Terminal;
import org.jline.utils.InfoCmp;
import org.jline.utils.NonBlockingReader;
import org.phalanx.controller.jmx.BackendMXBean;
import org.phalanx.controller.jmx.VirtualDatabaseMXBean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code monitor <vdb>}: a live table of per-backend load, like top. In the shell it redraws the
 * screen until q or Ctrl-C; in one-shot mode it prints {@code --count} frames one after another.
 * Rates and latency are over the last interval (differences of the controller's counters).
 */
@Command(name = "monitor", description = "Live per-backend load of a virtual database (q or Ctrl-C leaves).")
final class Monitor extends Commands.Base {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    @Parameters(paramLabel = "<vdb>")
    String vdb;
    @Option(names = "--interval", description = "Seconds between refreshes (default ${DEFAULT-VALUE}).",
            defaultValue = "1")
    double interval;
    @Option(names = "--count", description = "Stop after this many refreshes (default: until q or Ctrl-C).",
            defaultValue = "0")
    int count;

    Monitor(Context ctx) {
        super(ctx);
    }

    /** The counters of one moment. */
    private record Sample(long nanos, long reads, long writes, long errors, long pending, long sessions,
                          long transactions, List<BackendSample> backends) {
    }

    private record BackendSample(String name, String state, long pending, long reads, long writes, long errors,
                                 long timeMicros) {
    }

    private Sample sample(VirtualDatabaseMXBean v) {
        List<BackendSample> backends = new ArrayList<>();
        for (String name : v.getBackends()) {
            BackendMXBean b = client().backend(vdb, name);
            backends.add(new BackendSample(name, b.getState(), b.getPendingRequests(), b.getReads(), b.getWrites(),
                    b.getErrors(), b.getTotalTimeMicros()));
        }
        return new Sample(System.nanoTime(), v.getReads(), v.getWrites(), v.getErrors(), v.getPendingRequests(),
                v.getOpenSessions(), v.getOpenTransactions(), backends);
    }

    @Override
    void run() throws Exception {
        if (interval <= 0) {
            throw new ConsoleException("--interval must be more than 0 seconds");
        }
        VirtualDatabaseMXBean v = client().vdb(vdb);
        Terminal terminal = ctx.terminal;
        ctx.interrupted.set(false);
        Attributes saved = terminal == null ? null : terminal.enterRawMode();
        try {
            Sample previous = sample(v);
            draw(1, previous, null);
            for (int frame = 2; count == 0 || frame <= count; frame++) {
                if (!pause(terminal)) {
                    break;
                }
                Sample now = sample(v);
                draw(frame, now, previous);
                previous = now;
            }
        } finally {
            if (terminal != null) {
                terminal.setAttributes(saved);
                ctx.out.println();
                ctx.out.flush();
            }
        }
    }

    /** Waits one interval; false when the user asked to leave (q, Ctrl-C). */
    private boolean pause(Terminal terminal) throws Exception {
        long end = System.nanoTime() + (long) (interval * 1e9);
        while (System.nanoTime() < end) {
            if (ctx.interrupted.get()) {
                return false;
            }
            if (terminal == null) {
                Thread.sleep(Math.max(1, Math.min(100, (end - System.nanoTime()) / 1_000_000)));
                continue;
            }
            NonBlockingReader keys = terminal.reader();
            int c = keys.read(100);
            if (c == 'q' || c == 'Q' || c == 3 || c == NonBlockingReader.EOF) {
                return false;
            }
        }
        return !ctx.interrupted.get();
    }

    private void draw(int frame, Sample now, Sample before) {
        if (ctx.terminal != null) {
            ctx.terminal.puts(InfoCmp.Capability.clear_screen);
        } else if (frame > 1) {
            ctx.out.println();
        }
        double seconds = before == null ? 0 : (now.nanos() - before.nanos()) / 1e9;
        ctx.out.println("monitor " + vdb + "  refresh " + frame + " at " + LocalTime.now().format(TIME) + "  every "
                + interval + " s" + (ctx.terminal != null ? "  (q or Ctrl-C to leave)" : ""));
        ctx.out.println("reads " + now.reads() + rate(now.reads(), before == null ? 0 : before.reads(), seconds)
                + "  writes " + now.writes() + rate(now.writes(), before == null ? 0 : before.writes(), seconds)
                + "  errors " + now.errors() + "  pending " + now.pending() + "  sessions " + now.sessions()
                + "  open transactions " + now.transactions());
        Table t = new Table("BACKEND", "STATE", "PENDING", "READS/S", "WRITES/S", "LATENCY_MS", "ERRORS");
        for (int i = 0; i < now.backends().size(); i++) {
            BackendSample b = now.backends().get(i);
            BackendSample a = before == null || i >= before.backends().size() ? null : before.backends().get(i);
            if (a == null || seconds <= 0) {
                t.row(b.name(), b.state(), b.pending(), "-", "-", "-", b.errors());
                continue;
            }
            long requests = b.reads() + b.writes() - a.reads() - a.writes();
            t.row(b.name(), b.state(), b.pending(), perSecond(b.reads() - a.reads(), seconds),
                    perSecond(b.writes() - a.writes(), seconds),
                    requests == 0 ? "-" : Commands.millis((b.timeMicros() - a.timeMicros()) / requests), b.errors());
        }
        t.print(ctx.out);
        ctx.out.flush();
    }

    private static String rate(long now, long before, double seconds) {
        return seconds <= 0 ? "" : " (" + perSecond(now - before, seconds) + "/s)";
    }

    private static String perSecond(long delta, double seconds) {
        return String.format(java.util.Locale.ROOT, "%.1f", delta / seconds);
    }
}
