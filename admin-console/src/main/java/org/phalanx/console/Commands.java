package org.phalanx.console;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.phalanx.controller.jmx.BackendMXBean;
import org.phalanx.controller.jmx.CacheMXBean;
import org.phalanx.controller.jmx.DumpDescription;
import org.phalanx.controller.jmx.GroupDescription;
import org.phalanx.controller.jmx.RecoveryLogMXBean;
import org.phalanx.controller.jmx.StatementStatistics;
import org.phalanx.controller.jmx.VerificationDescription;
import org.phalanx.controller.jmx.VirtualDatabaseMXBean;
import org.phalanx.controller.jmx.VirtualDatabaseManagement;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The console's commands, one per MBean operation plus the show views, monitor and sql. Each
 * prints plain text and returns 0; a failure is thrown and printed as one line by the caller.
 */
final class Commands {
    private Commands() {
    }


    /** A command with the context; subclasses print with {@link #out}. */
    abstract static class Base implements Callable<Integer> {
        final Context ctx;

        Base(Context ctx) {
            this.ctx = ctx;
        }

        ControllerClient client() {
            return ctx.client();
        }

        void println(Object line) {
            ctx.out.println(line);
            ctx.out.flush();
        }

        @Override
        public Integer call() throws Exception {
            run();
            return 0;
        }

        abstract void run() throws Exception;
    }

    // ------------------------------------------------------------------ show

    @Command(name = "show", description = "Show vdbs, backends, dumps, checkpoints, stats or config.",
            subcommands = {ShowVdbs.class, ShowBackends.class, ShowDumps.class, ShowCheckpoints.class,
                    ShowStats.class, ShowConfig.class, ShowGroup.class})
    static final class Show implements Callable<Integer> {
        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "show what? vdbs, backends, dumps, checkpoints, stats or config");
        }
    }

    @Command(name = "vdbs", description = "The hosted virtual databases with their load.")
    static final class ShowVdbs extends Base {
        ShowVdbs(Context ctx) {
            super(ctx);
        }

        @Override
        void run() {
            Table t = new Table("VDB", "ENABLED", "BACKENDS", "READS", "WRITES", "TRANSACTIONS", "ERRORS", "PENDING",
                    "SESSIONS");
            for (String name : client().controller().getVirtualDatabases()) {
                VirtualDatabaseMXBean vdb = client().vdb(name);
                Map<String, String> states = vdb.getBackendStates();
                long enabled = states.values().stream().filter("ENABLED"::equals).count();
                t.row(name, enabled, states.size(), vdb.getReads(), vdb.getWrites(), vdb.getTransactions(),
                        vdb.getErrors(), vdb.getPendingRequests(), vdb.getOpenSessions());
            }
            t.print(ctx.out);
        }
    }

    @Command(name = "backends", description = "Backends of a virtual database (of all, without one): state, load, latency.")
    static final class ShowBackends extends Base {
        @Parameters(arity = "0..1", paramLabel = "<vdb>")
        String vdb;

        ShowBackends(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            String[] names = vdb != null ? new String[]{vdb} : client().controller().getVirtualDatabases();
            Table t = new Table("VDB", "BACKEND", "STATE", "PENDING", "READS", "WRITES", "ERRORS", "MEAN_MS",
                    "CHECKPOINT", "REASON");
            for (String name : names) {
                for (String backend : client().vdb(name).getBackends()) {
                    BackendMXBean b = client().backend(name, backend);
                    long checkpoint = b.getCheckpoint();
                    t.row(name, backend, b.getState(), b.getPendingRequests(), b.getReads(), b.getWrites(),
                            b.getErrors(), millis(b.getMeanLatencyMicros()), checkpoint < 0 ? "" : checkpoint,
                            b.getDisabledReason());
                }
            }
            t.print(ctx.out);
        }
    }

    /** {@code backends <vdb>}: the same as {@code show backends <vdb>}, for short scripts. */
    @Command(name = "backends", description = "The same as 'show backends'.")
    static final class Backends extends Base {
        @Parameters(arity = "0..1", paramLabel = "<vdb>")
        String vdb;

        Backends(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            ShowBackends show = new ShowBackends(ctx);
            show.vdb = vdb;
            show.run();
        }
    }

    @Command(name = "dumps", description = "Dumps in a virtual database's dump folder.")
    static final class ShowDumps extends Base {
        @Parameters(paramLabel = "<vdb>")
        String vdb;

        ShowDumps(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            Table t = new Table("DUMP", "FORMAT", "ENGINE", "CHECKPOINT", "POSITION", "ROWS", "BYTES", "CREATED");
            for (DumpDescription d : client().vdb(vdb).listDumps()) {
                if (d.problem().isEmpty()) {
                    t.row(d.name(), d.format(), d.sourceEngine(), d.checkpoint(), d.checkpointPosition(), d.rows(),
                            d.bytes(), d.created());
                } else {
                    t.row(d.name(), "unreadable: " + d.problem());
                }
            }
            t.print(ctx.out);
        }
    }

    @Command(name = "group", description = "The group of a distributed virtual database, as this controller sees it.")
    static final class ShowGroup extends Base {
        @Parameters(paramLabel = "<vdb>")
        String vdb;

        ShowGroup(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            GroupDescription g = client().vdb(vdb).getGroup();
            if (g == null) {
                throw new ConsoleException("virtual database " + vdb + " is not distributed");
            }
            println("group " + g.group() + ": this controller is " + g.member() + (g.witness() ? " (a witness)" : "")
                    + "; primary " + (g.primary().isEmpty() ? "none" : g.primary()) + " (epoch " + g.epoch()
                    + "); log leader " + (g.logLeader().isEmpty() ? "none" : g.logLeader()));
            println("members " + String.join(", ", g.members()) + "; connected " + String.join(", ", g.connected()));
            println("log index applied here " + g.appliedIndex() + " (committed " + g.commitIndex()
                    + (g.firstIndex() > 1 ? ", compacted: held from index " + g.firstIndex() : "")
                    + "), recovery-log position " + g.logPosition()
                    + (g.dumpPosition() >= 0 ? " (dump at " + g.dumpPosition() + ")" : ""));
            if (g.memberIndexes().isEmpty()) {
                println("each member's log index: known on the log's leader" + (g.logLeader().isEmpty() ? ""
                        : " (" + g.logLeader() + ")"));
            } else {
                Table lag = new Table("MEMBER", "LOG INDEX", "LAG");
                g.memberIndexes().forEach((m, i) -> lag.row(m, i, Math.max(0, g.commitIndex() - i)));
                lag.print(ctx.out);
            }
            Table t = new Table("BACKEND", "STATE");
            g.backends().forEach(t::row);
            t.print(ctx.out);
        }
    }

    @Command(name = "step-down", description = "On the primary of a distributed virtual database: let another member take over.")
    static final class StepDown extends Base {
        @Parameters(paramLabel = "<vdb>")
        String vdb;

        StepDown(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            client().vdb(vdb).stepDown();
            println("this controller steps down as primary of " + vdb + "; another member takes over");
        }
    }

    @Command(name = "compact-log", description = "On a member of a distributed virtual database: compact this"
            + " member's copy of the group's log (a data member first dumps a backend and compacts up to the dump).")
    static final class CompactLog extends Base {
        @Parameters(paramLabel = "<vdb>")
        String vdb;

        CompactLog(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            long position = client().vdb(vdb).compactGroupLog();
            println("the group log of " + vdb + " is compacted here (data member: up to a dump at log position "
                    + position + "; witness: its log now from index " + position + ")");
        }
    }

    /** A command on one member of a distributed virtual database's group: {@code <vdb> <member>}. */
    abstract static class OnMember extends Base {
        @Parameters(index = "0", paramLabel = "<vdb>")
        String vdb;
        @Parameters(index = "1", paramLabel = "<member>")
        String member;

        OnMember(Context ctx) {
            super(ctx);
        }
    }

    @Command(name = "take-over", description = "On the primary of a distributed virtual database: take over the"
            + " backends of a member gone for good (those this controller declares with owner).")
    static final class TakeOver extends OnMember {
        TakeOver(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            String[] taken = client().vdb(vdb).takeOverBackends(member);
            println("backends of " + member + " taken over and in service here: " + String.join(", ", taken));
        }
    }

    @Command(name = "give-back", description = "On the primary of a distributed virtual database: give the backends"
            + " it took over from a member back to it, once that member is back and follows the group's log.")
    static final class GiveBack extends OnMember {
        GiveBack(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            String[] given = client().vdb(vdb).giveBackBackends(member);
            println("backends given back to " + member + ", which catches them up and uses them: "
                    + String.join(", ", given));
        }
    }

    @Command(name = "add-member", description = "Add a controller to a distributed virtual database's group.")
    static final class AddMember extends OnMember {
        AddMember(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            client().vdb(vdb).addGroupMember(member);
            println("member " + member + " added to the group of " + vdb);
        }
    }

    @Command(name = "remove-member", description = "Remove a controller from a distributed virtual database's group.")
    static final class RemoveMember extends OnMember {
        RemoveMember(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            client().vdb(vdb).removeGroupMember(member);
            println("member " + member + " removed from the group of " + vdb);
        }
    }

    @Command(name = "checkpoints", description = "Checkpoints in a virtual database's recovery log.")
    static final class ShowCheckpoints extends Base {
        @Parameters(paramLabel = "<vdb>")
        String vdb;

        ShowCheckpoints(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            Table t = new Table("CHECKPOINT", "POSITION");
            client().vdb(vdb).getCheckpoints().forEach(t::row);
            t.print(ctx.out);
        }
    }

    @Command(name = "stats", description = "Request counters, cache, recovery log and the top SQL statement templates.")
    static final class ShowStats extends Base {
        @Parameters(paramLabel = "<vdb>")
        String vdb;

        @Option(names = "--top", description = "How many statement templates (default ${DEFAULT-VALUE}).",
                defaultValue = "10")
        int top;

        ShowStats(Context ctx) {
            super(ctx);
        }

        @Override
        void run() {
            VirtualDatabaseMXBean v = client().vdb(vdb);
            println("requests: reads " + v.getReads() + ", writes " + v.getWrites() + ", commits " + v.getCommits()
                    + ", rollbacks " + v.getRollbacks() + ", errors " + v.getErrors() + ", read retries "
                    + v.getReadRetries() + ", unparsed " + v.getUnparsedStatements() + ", row-level writes "
                    + v.getRowLevelWrites());
            println("now: pending " + v.getPendingRequests() + ", sessions " + v.getOpenSessions()
                    + ", open transactions " + v.getOpenTransactions());
            Map<String, Double> answers = v.getAnswerTimeMicros();
            println(String.format(Locale.ROOT, "answer time (request read to reply written): p50 %.0f µs, p95 %.0f µs,"
                    + " p99 %.0f µs, max %.0f µs over %.0f requests", answers.get("p50"), answers.get("p95"),
                    answers.get("p99"), answers.get("max"), answers.get("count")));
            CacheMXBean cache = client().cache(vdb);
            println(cache == null ? "cache: none" : String.format("cache: hits %d, misses %d (hit ratio %.1f%%),"
                            + " entries %d, memory %d bytes, invalidations %d, evictions %d", cache.getHits(),
                    cache.getMisses(), cache.getHitRatio() * 100, cache.getEntries(), cache.getMemoryBytes(),
                    cache.getInvalidations(), cache.getEvictions()));
            RecoveryLogMXBean log = client().recoveryLog(vdb);
            println(log == null ? "recovery log: none" : "recovery log: " + log.getDescription() + ", position "
                    + log.getLastPosition() + ", " + log.getSize() + " entries held");
            Table t = new Table("COUNT", "ERRORS", "CACHE_HITS", "MEAN_MS", "MAX_MS", "STATEMENT");
            for (StatementStatistics s : v.topStatements(top)) {
                t.row(s.count(), s.errors(), s.cacheHits(), millis(s.meanMicros()), millis(s.maxMicros()), s.template());
            }
            println("");
            t.print(ctx.out);
        }
    }

    @Command(name = "config", description = "controller.xml, or a virtual database's file (passwords hidden).")
    static final class ShowConfig extends Base {
        @Parameters(arity = "0..1", paramLabel = "<vdb>")
        String vdb;

        ShowConfig(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            if (vdb == null) {
                println("# " + client().controller().getConfigFile());
                ctx.out.print(client().controller().getConfiguration());
            } else {
                client().vdb(vdb);
                ctx.out.print(client().controller().virtualDatabaseConfiguration(vdb));
            }
            ctx.out.flush();
        }
    }

    // ------------------------------------------------------------------ backends and recovery

    @Command(name = "enable", description = "Replay the recovery log onto a disabled backend, then enable it.")
    static final class Enable extends Base {
        @Parameters(index = "0", paramLabel = "<vdb>")
        String vdb;
        @Parameters(index = "1", paramLabel = "<backend>")
        String backend;

        Enable(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            VirtualDatabaseMXBean v = client().vdb(vdb);
            LongOperation.run(ctx, vdb, "enable backend " + backend, () -> {
                v.enableBackend(backend);
                return null;
            });
            println("backend " + backend + " of " + vdb + " is " + v.getBackendStates().get(backend));
        }
    }

    @Command(name = "disable", description = "Take a backend out of service at a checkpoint (enable replays from there).")
    static final class Disable extends Base {
        @Parameters(index = "0", paramLabel = "<vdb>")
        String vdb;
        @Parameters(index = "1", paramLabel = "<backend>")
        String backend;

        Disable(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            VirtualDatabaseMXBean v = client().vdb(vdb);
            v.disableBackend(backend);
            long checkpoint = client().backend(vdb, backend).getCheckpoint();
            println("backend " + backend + " of " + vdb + " is " + v.getBackendStates().get(backend)
                    + (checkpoint < 0 ? "" : " at checkpoint " + checkpoint));
        }
    }

    @Command(name = "checkpoint", description = "Record a named checkpoint at the current log position.")
    static final class Checkpoint extends Base {
        @Parameters(index = "0", paramLabel = "<vdb>")
        String vdb;
        @Parameters(index = "1", paramLabel = "<name>")
        String name;

        Checkpoint(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            println("checkpoint " + name + " at position " + client().vdb(vdb).checkpoint(name));
        }
    }

    @Command(name = "backup", description = "Dump a backend into the dump folder (an enabled one keeps serving).")
    static final class Backup extends Base {
        @Parameters(index = "0", paramLabel = "<vdb>")
        String vdb;
        @Parameters(index = "1", paramLabel = "<backend>")
        String backend;
        @Parameters(index = "2", paramLabel = "<dump>")
        String dump;
        @Option(names = "--format", description = "portable (default), sqlite-native, pg_dump or mysqldump")
        String format = "";

        Backup(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            VirtualDatabaseMXBean v = client().vdb(vdb);
            String f = "portable".equals(format) ? "" : format;
            DumpDescription d = LongOperation.run(ctx, vdb, "backup " + backend + " to " + dump,
                    () -> v.backup(backend, dump, f));
            println("dump " + d.name() + ": " + d.rows() + " rows, " + d.bytes() + " bytes, " + d.format()
                    + " format, checkpoint " + d.checkpoint() + " at position " + d.checkpointPosition());
        }
    }

    @Command(name = "restore", description = "Restore a dump onto a disabled backend (then enable it to replay the log).")
    static final class Restore extends Base {
        @Parameters(index = "0", paramLabel = "<vdb>")
        String vdb;
        @Parameters(index = "1", paramLabel = "<backend>")
        String backend;
        @Parameters(index = "2", paramLabel = "<dump>")
        String dump;
        @Option(names = "--force", description = "Replace tables that hold rows.")
        boolean force;

        Restore(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            VirtualDatabaseMXBean v = client().vdb(vdb);
            DumpDescription d = LongOperation.run(ctx, vdb, "restore " + dump + " onto " + backend,
                    () -> v.restore(backend, dump, force));
            println("dump " + d.name() + " restored onto " + backend + ": " + d.rows() + " rows; enable " + backend
                    + " to replay the log from position " + d.checkpointPosition());
        }
    }

    @Command(name = "verify", description = "Check that the replicas hold identical data (every table, or those"
            + " named), while clients keep writing; report the rows that differ and the replica the majority outvoted.")
    static final class Verify extends Base {
        @Parameters(index = "0", paramLabel = "<vdb>")
        String vdb;
        @Parameters(index = "1..*", arity = "0..*", paramLabel = "<table>")
        java.util.List<String> tables = new java.util.ArrayList<>();
        @Option(names = "--rows-per-second", description = "Most rows compared per second (default: no limit).",
                defaultValue = "0")
        long rowsPerSecond;
        @Option(names = "--on-difference", description = "report (default), disable or rebuild the outvoted replica.",
                defaultValue = "report")
        String onDifference;

        Verify(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            VirtualDatabaseMXBean v = client().vdb(vdb);
            String names = String.join(" ", tables);
            VerificationDescription r = LongOperation.run(ctx, vdb, VirtualDatabaseManagement.verifyOperation(names),
                    () -> v.verifyWith(names, rowsPerSecond, onDifference));
            print(r);
        }

        /** The report: a table per table, then each difference, then what was done. */
        void print(VerificationDescription r) {
            Table t = new Table("TABLE", "BACKENDS", "ROWS", "CHUNKS", "DIFFERING", "OUTVOTED", "RESULT");
            for (VerificationDescription.TableVerification tv : r.tables()) {
                String result = !tv.problem().isEmpty() ? "not compared: " + tv.problem()
                        : tv.ranges().length == 0 ? (tv.backends().length < 2 ? "nothing to compare" : "identical")
                        : tv.keyed() ? "differs" : "differs (no primary key)";
                t.row(tv.table(), String.join(" ", tv.backends()), tv.rowsCompared(), tv.chunks(),
                        tv.keyed() ? tv.differingRows() : tv.ranges().length, String.join(" ", tv.minority()), result);
            }
            t.print(ctx.out);
            for (VerificationDescription.TableVerification tv : r.tables()) {
                for (String range : tv.ranges()) {
                    println(tv.table() + ": chunk " + range);
                }
                for (String row : tv.rows()) {
                    println(tv.table() + ": row " + row);
                }
                if (tv.differingRows() > tv.rows().length) {
                    println(tv.table() + ": " + (tv.differingRows() - tv.rows().length) + " more rows differ");
                }
                for (String note : tv.notes()) {
                    println(tv.table() + ": note: " + note);
                }
            }
            for (String action : r.actions()) {
                println(action);
            }
            println(String.format(Locale.ROOT, "%s: %d rows compared in %.1f s (%d rows/s): %s", vdb, r.rowsCompared(),
                    r.millis() / 1000.0, r.rowsPerSecond(), r.differences() == 0
                            ? "no differences" : r.differences() + " differences"
                            + (r.minority().length == 0 ? " (no majority to outvote a replica)"
                            : ", outvoted: " + String.join(" ", r.minority()))));
        }
    }

    @Command(name = "delete-dump", description = "Delete a dump (and release its checkpoint).")
    static final class DeleteDump extends Base {
        @Parameters(index = "0", paramLabel = "<vdb>")
        String vdb;
        @Parameters(index = "1", paramLabel = "<dump>")
        String dump;

        DeleteDump(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            client().vdb(vdb).deleteDump(dump);
            println("dump " + dump + " deleted");
        }
    }

    @Command(name = "purge-log", description = "Delete recovery log entries older than the oldest checkpoint.")
    static final class PurgeLog extends Base {
        @Parameters(paramLabel = "<vdb>")
        String vdb;

        PurgeLog(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            println(client().vdb(vdb).purgeLog() + " log entries deleted");
        }
    }

    @Command(name = "flush-cache", description = "Empty a virtual database's result cache.")
    static final class FlushCache extends Base {
        @Parameters(paramLabel = "<vdb>")
        String vdb;

        FlushCache(Context ctx) {
            super(ctx);
        }

        @Override
        void run() {
            client().vdb(vdb).flushCache();
            println("cache of " + vdb + " flushed");
        }
    }

    // ------------------------------------------------------------------ controller

    @Command(name = "load", description = "Host a virtual database from its file (a path on the controller's machine).")
    static final class Load extends Base {
        @Parameters(paramLabel = "<file>")
        String file;

        Load(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            println("virtual database " + client().controller().loadVirtualDatabase(file) + " loaded");
        }
    }

    @Command(name = "unload", description = "Stop hosting a virtual database.")
    static final class Unload extends Base {
        @Parameters(paramLabel = "<vdb>")
        String vdb;
        @Option(names = "--mode", description = "wait (for clients to leave), safe (default: finish requests in flight)"
                + " or force", defaultValue = "safe")
        String mode;

        Unload(Context ctx) {
            super(ctx);
        }

        @Override
        void run() throws Exception {
            client().vdb(vdb);
            client().controller().unloadVirtualDatabase(vdb, mode);
            println("virtual database " + vdb + " unloaded (" + mode + ")");
        }
    }

    @Command(name = "shutdown", description = "Shut the controller down.")
    static final class Shutdown extends Base {
        @Option(names = "--mode", description = "wait (for clients to leave), safe (default: finish requests in flight)"
                + " or force", defaultValue = "safe")
        String mode;

        Shutdown(Context ctx) {
            super(ctx);
        }

        @Override
        void run() {
            client().controller().shutdown(mode);
            println("controller at " + client().address() + " is shutting down (" + mode + ")");
        }
    }

    static String millis(long micros) {
        return String.format(java.util.Locale.ROOT, "%.2f", micros / 1000.0);
    }

    static Duration seconds(double s) {
        return Duration.ofMillis((long) (s * 1000));
    }
}
