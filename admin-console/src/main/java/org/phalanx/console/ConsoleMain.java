package org.phalanx.console;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/phalanx console [--jmx host:port] --user u [--password p] [command...]}: the
 * administration console. With a command it runs it, prints plain text and exits (0 on success,
 * 1 when it failed, 2 for a usage error), for scripts; without one it opens the interactive shell.
 * Every failure is one line on stderr: {@code error: ...}.
 */
@Command(name = "phalanx console", mixinStandardHelpOptions = true, versionProvider = ConsoleMain.Version.class,
        description = "Phalanx administration console over JMX: an interactive shell, or one command for scripts.",
        footer = "%nThe password can also come from PHALANX_JMX_PASSWORD, or is asked for on a terminal.")
public final class ConsoleMain implements Callable<Integer> {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;
    static final String PASSWORD_ENV = "PHALANX_JMX_PASSWORD";

    /** The commands, in the order help lists them. */
    static final List<Class<?>> COMMANDS = List.of(Commands.Show.class, Commands.Backends.class, Commands.Enable.class,
            Commands.Disable.class, Commands.Checkpoint.class, Commands.Backup.class, Commands.Restore.class,
            Commands.DeleteDump.class, Commands.PurgeLog.class, Commands.FlushCache.class, Monitor.class, Sql.class,
            Commands.Load.class, Commands.Unload.class, Commands.Shutdown.class, Commands.StepDown.class,
            Commands.AddMember.class, Commands.RemoveMember.class, Commands.CompactLog.class,
            Commands.TakeOver.class, Commands.GiveBack.class, Commands.Verify.class);

    @Option(names = "--jmx", paramLabel = "host:port", description = "The controller's JMX address (default ${DEFAULT-VALUE}).",
            defaultValue = "127.0.0.1:1090")
    String jmx;
    @Option(names = {"-u", "--user"}, description = "An admin user of the controller (its <jmx><admin>).")
    String user;
    @Option(names = {"-p", "--password"}, description = "The admin's password.")
    String password;
    @Option(names = "--tls", description = "The controller's JMX port uses TLS (trust its certificate with"
            + " -Djavax.net.ssl.trustStore in PHALANX_JAVA_OPTS).")
    boolean tls;
    @Option(names = "--history-file", description = "Where the shell keeps its history (default ~/.phalanx_console_history).")
    Path historyFile;

    private final PrintWriter out;
    private final PrintWriter err;

    ConsoleMain(PrintWriter out, PrintWriter err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int status = run(args, out, err);
        out.flush();
        err.flush();
        System.exit(status);
    }

    /** Runs the console; its exit status. */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        ConsoleMain main = new ConsoleMain(out, err);
        Context ctx = new Context(main::connect, out, err, null, System.console() != null);
        try {
            return commandLine(main, ctx, out, err).execute(args);
        } finally {
            ctx.close();
        }
    }

    /** The picocli command line over the given root (the console, or the shell's root), with every command. */
    static CommandLine commandLine(Object root, Context ctx, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(root, new Factory(ctx));
        for (Class<?> command : COMMANDS) {
            cl.addSubcommand(command);
        }
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            err.println("error: " + Errors.oneLine(e));
            err.flush();
            return FAILED;
        });
        cl.setParameterExceptionHandler((e, args) -> {
            CommandLine where = e.getCommandLine();
            String name = where.getCommandSpec().qualifiedName(" ").replaceFirst("^phalanx console ?", "").trim();
            err.println("error: " + e.getMessage().replaceAll("\\s*\\R\\s*", " ").trim()
                    + (name.isEmpty() ? "" : " (usage: help " + name + ")"));
            err.flush();
            return USAGE;
        });
        return cl;
    }

    /** No command: the interactive shell. */
    @Override
    public Integer call() throws Exception {
        return new Shell(this).run();
    }

    String user() {
        return user;
    }

    String jmx() {
        return jmx;
    }

    Path historyFile() {
        return historyFile != null ? historyFile : Path.of(System.getProperty("user.home"), ".phalanx_console_history");
    }

    /** The password from the options or the environment; null when none was given. */
    String password() {
        return password != null ? password : System.getenv(PASSWORD_ENV);
    }

    /** Connects with the options given; the shell asks for a missing password before this. */
    ControllerClient connect() {
        return connect(password());
    }

    ControllerClient connect(String pw) {
        if (user == null) {
            throw new ConsoleException("--user is needed: an admin user of the controller (its <jmx><admin>)");
        }
        if (pw == null && System.console() != null) {
            char[] typed = System.console().readPassword("password for %s: ", user);
            pw = typed == null ? null : new String(typed);
        }
        if (pw == null) {
            throw new ConsoleException("a password is needed: --password, " + PASSWORD_ENV + ", or a terminal to ask on");
        }
        password = pw;
        return ControllerClient.connect(jmx, user, pw, tls);
    }

    /** Makes commands with the console's context. */
    private static final class Factory implements CommandLine.IFactory {
        private final Context ctx;

        Factory(Context ctx) {
            this.ctx = ctx;
        }

        @Override
        public <K> K create(Class<K> cls) throws Exception {
            try {
                return cls.getDeclaredConstructor(Context.class).newInstance(ctx);
            } catch (NoSuchMethodException noContext) {
                return CommandLine.defaultFactory().create(cls);
            }
        }
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            Package p = ConsoleMain.class.getPackage();
            return new String[]{"Phalanx console " + (p.getImplementationVersion() == null ? "" : p.getImplementationVersion())};
        }
    }
}
