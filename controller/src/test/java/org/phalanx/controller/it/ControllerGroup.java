package org.phalanx.controller.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.phalanx.engine.Engine;
import org.phalanx.testkit.db.DatabaseServer;
import org.phalanx.testkit.process.ControllerProcess;
import org.phalanx.testkit.process.GroupProbe;
import org.phalanx.testkit.process.Ports;

/**
 * A distributed virtual database "bank" on controller processes of one group (docs/distribution.md),
 * each with SQLite backends of its own (or none, for a witness), for the end-to-end tests.
 */
final class ControllerGroup implements AutoCloseable {
    static final String VDB = "bank";
    private final Path dir;
    private final List<String> names = new ArrayList<>();
    private final List<Integer> clientPorts = new ArrayList<>();
    private final List<Integer> groupPorts = new ArrayList<>();
    private final List<Integer> jmxPorts = new ArrayList<>();
    private final List<Boolean> witnesses = new ArrayList<>();
    /** Per member, the JDBC URLs of its backends (SQLite paths absolute), or none for a witness. */
    private final List<List<String>> backendUrls = new ArrayList<>();
    private final int backendsPerMember;
    /** Per member, the members whose backends it also declares (standby, {@code owner="..."}). */
    private final List<List<Integer>> standbyOwners = new ArrayList<>();
    /** Per member, its {@code <requestManager>} element (full replication unless a test says otherwise). */
    private final List<String> requestManagers = new ArrayList<>();
    /** More attributes of every member's {@code <distribution>} element. */
    private String distributionAttributes = "";
    private ControllerProcess[] processes;

    /**
     * Members with SQLite backends of their own.
     *
     * @param witnesses for each member, whether it is a witness
     */
    ControllerGroup(Path dir, int backendsPerMember, boolean... witnesses) throws IOException {
        this(dir, backendsPerMember, List.of(), witnesses);
    }

    /** @param backendUrls the backends' URLs of the first members (the others get SQLite files) */
    ControllerGroup(Path dir, int backendsPerMember, List<List<String>> backendUrls, boolean... witnesses)
            throws IOException {
        this.dir = dir;
        this.backendsPerMember = backendsPerMember;
        this.processes = new ControllerProcess[witnesses.length];
        for (int i = 0; i < witnesses.length; i++) {
            declare(witnesses[i], i < backendUrls.size() ? backendUrls.get(i) : null);
        }
        for (int i = 0; i < witnesses.length; i++) {
            write(i);
        }
    }

    private void declare(boolean witness, List<String> urls) throws IOException {
        List<String> own = new ArrayList<>();
        if (urls != null) {
            own.addAll(urls);
        } else if (!witness) {
            for (int b = 1; b <= backendsPerMember; b++) {
                own.add("jdbc:sqlite:" + dir.resolve("c" + (names.size() + 1)).resolve("db" + b + ".db").toAbsolutePath());
            }
        }
        backendUrls.add(own);
        standbyOwners.add(new ArrayList<>());
        requestManagers.add("<requestManager replication=\"RAIDb-1\" waitPolicy=\"all\"/>");
        names.add("c" + (names.size() + 1));
        clientPorts.add(Ports.free());
        groupPorts.add(Ports.free());
        jmxPorts.add(Ports.free());
        witnesses.add(witness);
    }

    /**
     * A new data member, configured with every member (itself included) but not yet in the others'
     * log configuration: an operator adds it ({@code addGroupMember}) once it runs. Its index.
     */
    int newMember() throws IOException {
        declare(false, null);
        processes = Arrays.copyOf(processes, names.size());
        write(names.size() - 1);
        return names.size() - 1;
    }

    /** Adds attributes to every member's {@code <distribution>} (before they start), e.g. {@code compactAfter="500"}. */
    void distributionAttributes(String attributes) throws IOException {
        distributionAttributes = " " + attributes;
        for (int i = 0; i < names.size(); i++) {
            write(i);
        }
    }

    /** Member i's {@code <requestManager>} element, e.g. partial replication with its placement (before it starts). */
    void requestManager(int i, String element) throws IOException {
        requestManagers.set(i, element);
        write(i);
    }

    /** Member i also declares the backends of member {@code owner}, to take them over (before they start). */
    void declareStandby(int i, int owner) throws IOException {
        standbyOwners.get(i).add(owner);
        write(i);
    }

    /** The name member i gives the b-th backend (from 0) of member {@code owner}, as that member does. */
    String backendName(int owner, int b) {
        return names.get(owner) + "-db" + (b + 1);
    }

    /** Waits until the first index member i's log still holds is above {@code index} (its log was compacted past it). */
    void awaitFirstIndexAbove(int member, long index, Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        try (ControllerJmx jmx = jmx(member)) {
            while (System.nanoTime() < end) {
                if ((Long) jmx.group().get("firstIndex") > index) {
                    return;
                }
                Thread.sleep(200);
            }
        }
        throw new AssertionError(name(member) + "'s log still holds index " + index + outputs());
    }

    /** Waits until member i is connected to {@code count} members of the group (itself included). */
    void awaitConnected(int member, int count) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try (ControllerJmx jmx = jmx(member)) {
            while (System.nanoTime() < end) {
                if (((String[]) jmx.group().get("connected")).length == count) {
                    return;
                }
                Thread.sleep(200);
            }
        }
        throw new AssertionError(name(member) + " is not connected to " + count + " members" + outputs());
    }

    /** JMX on member i (admin/secret). */
    ControllerJmx jmx(int i) throws Exception {
        return ControllerJmx.connect(jmxPorts.get(i), "admin", "secret", VDB);
    }

    int size() {
        return processes.length;
    }

    String name(int i) {
        return names.get(i);
    }

    int clientPort(int i) {
        return clientPorts.get(i);
    }

    /** The folder of member i: its configuration, backends, logs and output. */
    Path folder(int i) {
        return dir.resolve(names.get(i));
    }

    /** The JDBC URLs of member i's backends (none for a witness). */
    List<String> backendUrls(int i) {
        return backendUrls.get(i);
    }

    private void write(int i) throws IOException {
        Path d = Files.createDirectories(folder(i));
        StringBuilder backends = new StringBuilder();
        // each member names its backends its own way: a follower applies each entry to those of its own its placement says
        backendElements(backends, i, "");
        for (int owner : standbyOwners.get(i)) {
            backendElements(backends, owner, " owner=\"" + names.get(owner) + "\"");
        }
        StringBuilder members = new StringBuilder();
        for (int m = 0; m < names.size(); m++) {
            members.append("    <member name=\"").append(names.get(m)).append("\" address=\"127.0.0.1:")
                    .append(groupPorts.get(m)).append('"').append(witnesses.get(m) ? " witness=\"true\"" : "")
                    .append("/>\n");
        }
        // a member declaring backends of several engines (its own and standby ones) speaks one dialect:
        // the workloads' portable SQL, as PostgreSQL's
        java.util.Set<Engine> engines = new java.util.HashSet<>();
        backendUrls.get(i).forEach(url -> engines.add(Engine.ofUrl(url)));
        standbyOwners.get(i).forEach(owner -> backendUrls.get(owner).forEach(url -> engines.add(Engine.ofUrl(url))));
        String dialect = engines.size() > 1 ? " sqlDialect=\"postgresql\"" : "";
        Files.writeString(d.resolve("vdb.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <virtualDatabase xmlns="urn:phalanx:virtual-database:1" name="%s"%s>
                  <users><user name="app" password="secret"/></users>
                  <backends>
                %s  </backends>
                  %s
                %s
                  <distribution group="bank-group" member="%s" logDir="group-log"%s>
                %s  </distribution>
                </virtualDatabase>
                """.formatted(VDB, dialect, backends, requestManagers.get(i), witnesses.get(i) ? "" : "  <recoveryLog dir=\"log\"/>", names.get(i),
                distributionAttributes, members));
        writeControllerXml(d, clientPorts.get(i), jmxPorts.get(i));
    }

    private void backendElements(StringBuilder backends, int owner, String attributes) {
        List<String> urls = backendUrls.get(owner);
        for (int b = 0; b < urls.size(); b++) {
            String url = urls.get(b);
            DatabaseServer server = Arrays.stream(DatabaseServer.values()).filter(engine -> engine.serves(url))
                    .findFirst().orElse(null);
            backends.append("    <backend name=\"").append(backendName(owner, b)).append("\" url=\"")
                    .append(url.replace("&", "&amp;")) // a URL's properties (a nested controller's login)
                    .append('"').append(attributes)
                    .append(server == null ? "" : " user=\"" + server.user() + "\" password=\"" + server.password() + "\"")
                    .append("/>\n");
        }
    }

    /** A controller.xml in {@code folder} hosting its vdb.xml, on 127.0.0.1, JMX admin/secret. */
    static void writeControllerXml(Path folder, int clientPort, int jmxPort) throws IOException {
        Files.writeString(folder.resolve("controller.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <controller xmlns="urn:phalanx:controller:1">
                  <listen address="127.0.0.1" port="%d"/>
                  <jmx address="127.0.0.1" port="%d"><admin user="admin" password="secret"/></jmx>
                  <virtualDatabase file="vdb.xml"/>
                </controller>
                """.formatted(clientPort, jmxPort));
    }

    /** Each member's output, shown when a test fails, tells how views changed and merged (a rare merge that never came). */
    void start(int i) throws IOException, InterruptedException {
        processes[i] = ControllerProcess.launcher(folder(i).resolve("controller.xml"))
                .systemProperty("phalanx.log.membership", "DEBUG")
                .systemProperty("phalanx.log.merge", "TRACE") // which views each coordinator saw, and why no merge
                .output(folder(i).resolve("controller-" + System.nanoTime() + ".out"))
                .awaitPorts(clientPorts.get(i)).awaitStarted().start();
    }

    /**
     * The first member, then the others together: the first is the group's oldest member, so it
     * coordinates the view and leads the log, as tests expect (and the others' JVMs start in parallel).
     */
    void startAll() throws IOException, InterruptedException {
        start(0);
        ExecutorService starting = Executors.newFixedThreadPool(processes.length);
        try {
            List<Future<?>> started = new ArrayList<>();
            for (int i = 1; i < processes.length; i++) {
                int member = i;
                started.add(starting.submit(() -> {
                    start(member);
                    return null;
                }));
            }
            for (Future<?> f : started) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException r) {
                        throw r;
                    }
                    throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
                }
            }
        } finally {
            starting.shutdown();
        }
    }

    /** kill -9. */
    void kill(int i) throws InterruptedException {
        Process p = processes[i].process();
        processes[i] = null;
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
    }

    /** kill -STOP / -CONT (a partition's stand-in) and the like, to member i. */
    void signal(int i, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(processes[i].pid())).start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + signal + " of member " + names.get(i) + " failed");
        }
    }

    ControllerProcess process(int i) {
        return processes[i];
    }

    /** The URL naming every member. */
    String url() {
        StringJoiner hosts = new StringJoiner(",");
        clientPorts.forEach(p -> hosts.add("127.0.0.1:" + p));
        return "jdbc:phalanx://" + hosts + "/" + VDB + "?user=app&password=secret";
    }

    /** A URL naming member i only, with more {@code options} (e.g. {@code readOnly=true}). */
    String url(int i, String options) {
        return "jdbc:phalanx://127.0.0.1:" + clientPorts.get(i) + "/" + VDB + "?user=app&password=secret&" + options;
    }

    /** The member serving sessions now, waiting up to {@code seconds} for one; -1 if none did. */
    int primary(int seconds) throws InterruptedException {
        List<String> members = new ArrayList<>();
        for (int i = 0; i < processes.length; i++) {
            members.add(processes[i] == null ? null : "127.0.0.1:" + clientPorts.get(i));
        }
        return GroupProbe.primary(members, VDB, "app", "secret", Duration.ofSeconds(seconds));
    }

    /**
     * Under the caller's load: kill -9 of the primary, restarted once another serves, then the same
     * for a follower; {@code pause} between each step.
     */
    void killAndRestartPrimaryThenFollower(Duration pause) throws IOException, InterruptedException {
        Thread.sleep(pause.toMillis());
        int primary = primary(10);
        kill(primary);
        Thread.sleep(2 * pause.toMillis()); // another member takes over meanwhile
        start(primary);
        Thread.sleep(pause.toMillis());
        int follower = (primary(10) + 1) % size();
        kill(follower);
        Thread.sleep(pause.toMillis());
        start(follower);
        Thread.sleep(pause.toMillis());
    }

    /** What the members said when drivers asked whether a lost request was applied (exactly-once retries). */
    List<String> outcomesAnswered() throws IOException {
        List<String> answers = new ArrayList<>();
        for (ControllerProcess p : processes) {
            if (p != null) {
                p.output().lines().filter(l -> l.contains("that lost its controller asked"))
                        .map(l -> l.substring(l.lastIndexOf(": ") + 2)).forEach(answers::add);
            }
        }
        return answers;
    }

    /** The last lines of every member's output, for failure messages. */
    String outputs() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < processes.length; i++) {
            if (processes[i] != null) {
                b.append("\n--- ").append(names.get(i)).append(" ---\n").append(processes[i].outputTail(100));
            }
        }
        return b.toString();
    }

    /**
     * {@link #outputs}, and the threads of each live member that are in JGroups' membership protocol
     * (GMS, its view handler, a merge) or blocked: a view change or merge that never completes shows
     * where it waits. For a failure found (a thread dump takes a second or so; a frozen member gives none).
     */
    String outputsAndThreads() {
        StringBuilder b = new StringBuilder(outputs());
        for (int i = 0; i < processes.length; i++) {
            if (processes[i] != null && processes[i].isAlive()) {
                b.append("\n--- ").append(names.get(i)).append("'s threads in JGroups' membership or blocked ---\n")
                        .append(membershipThreads(processes[i].pid()));
            }
        }
        return b.toString();
    }

    private String membershipThreads(long pid) {
        try {
            Path out = Files.createTempFile(dir, "threads", ".txt");
            Process jstack = new ProcessBuilder("jstack", String.valueOf(pid)).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).start();
            if (!jstack.waitFor(20, TimeUnit.SECONDS)) {
                jstack.destroyForcibly();
                return "(no thread dump in 20 s)";
            }
            String dump = Files.readString(out);
            StringJoiner kept = new StringJoiner("\n\n");
            for (String thread : dump.split("\n\n")) {
                if (thread.contains("org.jgroups.protocols.pbcast.") || thread.contains("State: BLOCKED")) {
                    kept.add(thread);
                }
            }
            return kept.toString();
        } catch (IOException | InterruptedException e) {
            return "(no thread dump: " + e + ")";
        }
    }

    @Override
    public void close() {
        for (ControllerProcess p : processes) {
            if (p != null) {
                p.close();
            }
        }
    }
}
