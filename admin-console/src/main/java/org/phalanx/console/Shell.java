package org.phalanx.console;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The interactive shell: JLine line editing, Tab completion of commands, virtual databases,
 * backends and dumps, and a history kept in a file. Ctrl-C clears the line being typed (on an
 * empty line it leaves, as Ctrl-D and exit do) and stops monitor.
 */
final class Shell {
    static final String PROMPT = "phalanx> ";

    private final ConsoleMain main;

    Shell(ConsoleMain main) {
        this.main = main;
    }

    /** Root of the shell's command lines: commands only, the connection options were given at start. */
    @Command(name = "", description = "Commands (Tab completes; exit, quit or Ctrl-D leaves):")
    static final class Root implements Runnable {
        @Override
        public void run() {
            // an empty line does nothing
        }
    }

    int run() throws IOException {
        // dumb(true): a script piped in has no terminal; that is expected, not worth JLine's warning
        try (Terminal terminal = TerminalBuilder.builder().system(true).dumb(true).name("phalanx").build()) {
            PrintWriter out = terminal.writer();
            String password = main.password();
            if (password == null) {
                try {
                    password = LineReaderBuilder.builder().terminal(terminal).build()
                            .readLine("password for " + main.user() + ": ", '*');
                } catch (UserInterruptException | EndOfFileException e) {
                    return ConsoleMain.FAILED;
                }
            }
            String pw = password;
            Context ctx = new Context(() -> main.connect(pw), out, out, terminal, true);
            try {
                return loop(terminal, ctx, out);
            } finally {
                ctx.close();
            }
        }
    }

    private int loop(Terminal terminal, Context ctx, PrintWriter out) {
        String version;
        try {
            version = ctx.client().controller().getVersion(); // a wrong password is said at once, not at the first command
        } catch (RuntimeException e) {
            out.println("error: " + Errors.oneLine(e));
            out.flush();
            return ConsoleMain.FAILED;
        }
        CommandLine commands = ConsoleMain.commandLine(new Root(), ctx, out, out);
        commands.addSubcommand("help", new CommandLine.HelpCommand());
        LineReader reader = LineReaderBuilder.builder()
                .terminal(terminal)
                .appName("phalanx")
                .completer(new ConsoleCompleter(commands, ctx))
                .variable(LineReader.HISTORY_FILE, main.historyFile())
                .build();
        Terminal.SignalHandler previous = terminal.handle(Terminal.Signal.INT, s -> ctx.interrupted.set(true));
        out.println("Phalanx console: controller " + version + " at " + ctx.client().address()
                + ". Tab completes, 'help' lists commands, exit or Ctrl-D leaves.");
        out.flush();
        try {
            while (true) {
                String line;
                try {
                    line = reader.readLine(PROMPT);
                } catch (UserInterruptException e) {
                    if (e.getPartialLine() == null || e.getPartialLine().isBlank()) {
                        break;
                    }
                    continue;
                } catch (EndOfFileException e) {
                    break;
                }
                List<String> words = new ArrayList<>();
                for (String w : reader.getParsedLine().words()) {
                    if (!w.isEmpty()) {
                        words.add(w);
                    }
                }
                if (words.isEmpty()) {
                    continue;
                }
                if (words.size() == 1 && (words.get(0).equals("exit") || words.get(0).equals("quit"))) {
                    break;
                }
                ctx.interrupted.set(false);
                commands.execute(words.toArray(String[]::new));
            }
        } finally {
            terminal.handle(Terminal.Signal.INT, previous);
            try {
                reader.getHistory().save();
            } catch (IOException e) {
                out.println("warning: the history could not be saved: " + e.getMessage());
            }
        }
        out.println("bye");
        out.flush();
        return ConsoleMain.OK;
    }
}
