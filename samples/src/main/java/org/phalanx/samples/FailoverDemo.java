package org.phalanx.samples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The distributed sample (samples/distributed-sqlite): starts the group's three controllers, has
 * clients write through a URL naming all three, kills the primary (kill -9) and restarts it while
 * they write, then shows every acknowledged row there and the six backend files identical.
 *
 * <p>Usage: {@code FailoverDemo <sample folder> <controller class path>}. It works in
 * {@code <sample folder>/run}, a fresh copy of the members' folders, so each run starts empty.
 */
public final class FailoverDemo {
    private static final Pattern PORT = Pattern.compile("<listen[^>]*port=\"(\\d+)\"");
    private static final int WRITERS = 4;

    private final Path run;
    private final String classpath;
    private final List<String> members = List.of("c1", "c2", "c3");
    private final List<Integer> ports = new ArrayList<>();
    private final Process[] processes = new Process[3];
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();

    private FailoverDemo(Path run, String classpath) {
        this.run = run;
        this.classpath = classpath;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: FailoverDemo <samples/distributed-sqlite> <controller class path>");
            System.exit(2);
        }
        Path sample = Path.of(args[0]).toAbsolutePath();
        Path run = sample.resolve("run");
        deleteTree(run);
        for (String m : List.of("c1", "c2", "c3")) {
            Files.createDirectories(run.resolve(m));
            for (String f : List.of("controller.xml", "ledger.xml")) {
                Files.copy(sample.resolve(m).resolve(f), run.resolve(m).resolve(f));
            }
        }
        FailoverDemo demo = new FailoverDemo(run, args[1]);
        int status;
        try {
            status = demo.play();
        } finally {
            demo.stopAll();
        }
        System.exit(status);
    }

    private int play() throws Exception {
        for (int i = 0; i < 3; i++) {
            Matcher m = PORT.matcher(Files.readString(run.resolve(members.get(i)).resolve("controller.xml")));
            ports.add(m.find() ? Integer.parseInt(m.group(1)) : 25322);
            start(i);
        }
        String url = "jdbc:phalanx://" + String.join(",", ports.stream().map(p -> "127.0.0.1:" + p).toList())
                + "/ledger?user=demo&password=demo";
        int primary = primary(60);
        System.out.println("== Three controllers of group ledger-group are up; " + members.get(primary)
                + " is the primary (the others refuse sessions and keep their backends current)");
        System.out.println("== Clients write through " + url.replace("password=demo", "password=***"));
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE ledger (id INTEGER PRIMARY KEY, writer INTEGER NOT NULL, note TEXT)");
        }
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            Thread t = new Thread(() -> write(url, writer), "writer-" + w);
            writers.add(t);
            t.start();
        }
        report(3);
        System.out.println("== kill -9 " + members.get(primary) + " (the primary)");
        processes[primary].destroyForcibly().waitFor();
        processes[primary] = null;
        report(6);
        int next = primary(30);
        System.out.println("== " + members.get(next) + " took over; restarting " + members.get(primary)
                + ", which catches up as a follower");
        start(primary);
        report(5);
        stop.set(true);
        for (Thread t : writers) {
            t.join();
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM ledger")) {
            rs.next();
            System.out.println("== " + acknowledged.get() + " rows acknowledged; the virtual database holds "
                    + rs.getLong(1));
        }
        return compareBackends() ? 0 : 1;
    }

    private void write(String url, int writer) {
        long seq = 0;
        while (!stop.get()) {
            try (Connection c = DriverManager.getConnection(url);
                 PreparedStatement ps = c.prepareStatement("INSERT INTO ledger VALUES (?, ?, ?)")) {
                while (!stop.get()) {
                    ps.setLong(1, writer * 1_000_000_000L + ++seq);
                    ps.setInt(2, writer);
                    ps.setString(3, "row " + seq);
                    try {
                        ps.executeUpdate();
                        acknowledged.incrementAndGet();
                    } catch (SQLException e) {
                        // during a failover: the driver says the outcome is unknown (08006), and goes on
                        System.out.println("   writer " + writer + ": " + e.getSQLState() + " " + e.getMessage());
                    }
                }
            } catch (SQLException e) {
                System.out.println("   writer " + writer + " reconnects: " + e.getMessage());
            }
        }
    }

    private void report(int seconds) throws InterruptedException {
        for (int s = 0; s < seconds; s++) {
            long before = acknowledged.get();
            Thread.sleep(1_000);
            System.out.printf("   %5d rows/s acknowledged (%d in all)%n", acknowledged.get() - before, acknowledged.get());
        }
    }

    /** The six backend files, read directly with the SQLite driver, once the followers have caught up. */
    private boolean compareBackends() throws Exception {
        List<String> summaries = new ArrayList<>();
        for (int attempt = 0; attempt < 60; attempt++) {
            summaries.clear();
            for (String m : members) {
                for (String db : List.of("db1.db", "db2.db")) {
                    summaries.add(m + "/" + db + ": " + summary(run.resolve(m).resolve(db)));
                }
            }
            if (summaries.stream().map(s -> s.substring(s.indexOf(':'))).distinct().count() == 1) {
                break;
            }
            Thread.sleep(500);
        }
        System.out.println("== Each member's backend files, read directly with the SQLite driver:");
        summaries.forEach(s -> System.out.println("   " + s));
        boolean same = summaries.stream().map(s -> s.substring(s.indexOf(':'))).distinct().count() == 1;
        System.out.println(same ? "== All six replicas are identical." : "== The replicas differ!");
        return same;
    }

    private static String summary(Path db) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db + "?open_mode=1");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*), COALESCE(SUM(id % 1000003), 0) FROM ledger")) {
            rs.next();
            return rs.getLong(1) + " rows (checksum " + rs.getLong(2) + ")";
        }
    }

    private void start(int i) throws IOException, InterruptedException {
        Path folder = run.resolve(members.get(i));
        processes[i] = new ProcessBuilder("java", "-cp", classpath, "org.phalanx.controller.ControllerMain",
                folder.resolve("controller.xml").toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(folder.resolve("controller.log").toFile()))
                .start();
        long end = System.nanoTime() + 60_000_000_000L;
        while (!listening(ports.get(i))) {
            if (!processes[i].isAlive() || System.nanoTime() > end) {
                throw new IOException("controller " + members.get(i) + " did not start; see " + folder.resolve("controller.log"));
            }
            Thread.sleep(100);
        }
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The member that accepts a session (the primary), waiting for one. */
    private int primary(int seconds) throws InterruptedException {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 3; i++) {
                if (processes[i] == null) {
                    continue;
                }
                try (Connection c = DriverManager.getConnection("jdbc:phalanx://127.0.0.1:" + ports.get(i)
                        + "/ledger?user=demo&password=demo&failoverTimeout=0")) {
                    return i;
                } catch (SQLException notThePrimary) {
                    // 08004: not the primary (yet)
                }
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("no primary was elected; see " + run + "/c*/controller.log");
    }

    private void stopAll() throws InterruptedException {
        for (Process p : processes) {
            if (p != null) {
                p.destroy();
            }
        }
        for (Process p : processes) {
            if (p != null) {
                p.waitFor();
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
