package org.phalanx.console;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;
import org.phalanx.controller.jmx.DumpDescription;
import picocli.CommandLine;

/**
 * Tab completion: command names, {@code show} topics and options from the command definitions;
 * virtual database, backend and dump names asked of the controller as the line is typed.
 */
final class ConsoleCompleter implements Completer {
    /** What each positional argument of a command names (keyed by "command" or "show topic"). */
    enum Kind { VDB, BACKEND, DUMP }

    private static final Map<String, List<Kind>> ARGUMENTS = Map.ofEntries(
            Map.entry("backends", List.of(Kind.VDB)),
            Map.entry("enable", List.of(Kind.VDB, Kind.BACKEND)),
            Map.entry("disable", List.of(Kind.VDB, Kind.BACKEND)),
            Map.entry("checkpoint", List.of(Kind.VDB)),
            Map.entry("backup", List.of(Kind.VDB, Kind.BACKEND)),
            Map.entry("verify", List.of(Kind.VDB)),
            Map.entry("restore", List.of(Kind.VDB, Kind.BACKEND, Kind.DUMP)),
            Map.entry("delete-dump", List.of(Kind.VDB, Kind.DUMP)),
            Map.entry("purge-log", List.of(Kind.VDB)),
            Map.entry("flush-cache", List.of(Kind.VDB)),
            Map.entry("monitor", List.of(Kind.VDB)),
            Map.entry("sql", List.of(Kind.VDB)),
            Map.entry("unload", List.of(Kind.VDB)),
            Map.entry("show backends", List.of(Kind.VDB)),
            Map.entry("show dumps", List.of(Kind.VDB)),
            Map.entry("show checkpoints", List.of(Kind.VDB)),
            Map.entry("show stats", List.of(Kind.VDB)),
            Map.entry("show config", List.of(Kind.VDB)));

    private final CommandLine commands;
    private final Context ctx;

    ConsoleCompleter(CommandLine commands, Context ctx) {
        this.commands = commands;
        this.ctx = ctx;
    }

    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
        List<String> words = line.words().subList(0, line.wordIndex());
        String current = line.word();
        for (String c : candidates(words, current)) {
            candidates.add(new Candidate(c));
        }
    }

    /** What may come at this point, given the words before it. */
    List<String> candidates(List<String> before, String current) {
        List<String> out = new ArrayList<>();
        if (before.isEmpty()) {
            out.addAll(commands.getSubcommands().keySet());
            out.add("exit");
            out.add("quit");
            return out;
        }
        CommandLine command = commands.getSubcommands().get(before.get(0));
        if (command == null) {
            return out;
        }
        String key = before.get(0);
        List<String> args = new ArrayList<>();
        for (String w : before.subList(1, before.size())) {
            if (!w.startsWith("-")) {
                args.add(w);
            }
        }
        if (!command.getSubcommands().isEmpty()) { // show <topic>
            if (args.isEmpty()) {
                out.addAll(command.getSubcommands().keySet());
                return out;
            }
            command = command.getSubcommands().get(args.get(0));
            if (command == null) {
                return out;
            }
            key = key + " " + args.get(0);
            args = args.subList(1, args.size());
        }
        if (current.startsWith("-")) {
            out.addAll(command.getCommandSpec().optionsMap().keySet());
            return out;
        }
        List<Kind> kinds = ARGUMENTS.getOrDefault(key, List.of());
        if (args.size() < kinds.size()) {
            try {
                out.addAll(names(kinds.get(args.size()), args));
            } catch (RuntimeException e) {
                // the controller did not answer: no names to offer
            }
        }
        return out;
    }

    private List<String> names(Kind kind, List<String> args) throws RuntimeException {
        ControllerClient client = ctx.client();
        return switch (kind) {
            case VDB -> List.of(client.controller().getVirtualDatabases());
            case BACKEND -> List.of(client.vdb(args.get(0)).getBackends());
            case DUMP -> {
                List<String> dumps = new ArrayList<>();
                try {
                    for (DumpDescription d : client.vdb(args.get(0)).listDumps()) {
                        dumps.add(d.name());
                    }
                } catch (java.sql.SQLException e) {
                    // no recovery log: no dumps
                }
                yield dumps;
            }
        };
    }
}
