package org.phalanx.console;

import java.io.PrintWriter;
import java.util.function.Supplier;
import org.jline.terminal.Terminal;

/** What every command works with: the controller connection, where to print, and the terminal when there is one. */
final class Context {
    private final Supplier<ControllerClient> connect;
    private ControllerClient client;
    final PrintWriter out;
    final PrintWriter err;
    /** The interactive shell's terminal; null in one-shot mode. */
    final Terminal terminal;
    /** Whether progress bars may be drawn (a terminal is watching). */
    final boolean showProgress;
    /** Set by Ctrl-C while a command runs in the shell (monitor leaves on it). */
    final java.util.concurrent.atomic.AtomicBoolean interrupted = new java.util.concurrent.atomic.AtomicBoolean();

    Context(Supplier<ControllerClient> connect, PrintWriter out, PrintWriter err, Terminal terminal,
            boolean showProgress) {
        this.connect = connect;
        this.out = out;
        this.err = err;
        this.terminal = terminal;
        this.showProgress = showProgress;
    }

    /** The connection, opened on first use (help needs none). */
    synchronized ControllerClient client() {
        if (client == null) {
            client = connect.get();
        }
        return client;
    }

    synchronized void close() {
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
