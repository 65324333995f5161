package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.phalanx.controller.it.Sql.one;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.recovery.AppliedPositions;
import org.phalanx.requestmanager.recovery.AppliedTable;
import org.phalanx.testkit.db.SqliteFiles;

/**
 * Partial replication inside a group (docs/distribution.md, Partial replication in a group): c1
 * RAIDb-2 over three SQLite backends (each table on two), c2 RAIDb-1 over two, c3 RAIDb-2 with
 * another placement. Under the bank load, with tables created while it runs, the primary (c1,
 * partial) is killed (-9) and restarted, then a follower; then c3 (partial) is made primary.
 * Afterwards every backend holding a table holds it identical to every other holder on every
 * member, each member holds each table on the backends its own rules say and on no other, and a
 * follower's read-only session reads a table created while it was serving. Also: a member
 * replicating fully does not take over the backends of one replicating partially.
 */
class DistributedPartialIT {
    private static final int CLIENTS = 8;
    private static final Pattern TABLES = Pattern.compile("acc|transfers|notes|t_\\d+|late_1");

    /** Where a member's rules may put a table: {@code count} of {@code backends} (first matching rule). */
    private record Rule(Pattern table, Set<String> backends, int count) {
    }

    private static final List<List<Rule>> RULES = List.of(
            List.of(new Rule(Pattern.compile("acc"), Set.of("db2", "db3"), 2),
                    new Rule(Pattern.compile("transfers"), Set.of("db1", "db2"), 2),
                    new Rule(Pattern.compile("late_.*"), Set.of("db1"), 1),
                    new Rule(Pattern.compile(".*"), Set.of("db1", "db2", "db3"), 2)),
            List.of(new Rule(Pattern.compile(".*"), Set.of("db1", "db2"), 2)),
            List.of(new Rule(Pattern.compile("acc|notes"), Set.of("db2", "db3"), 2),
                    new Rule(Pattern.compile("transfers"), Set.of("db1"), 1),
                    new Rule(Pattern.compile("late_.*"), Set.of("db1"), 1),
                    new Rule(Pattern.compile(".*"), Set.of("db1", "db2", "db3"), 2)));

    @TempDir
    Path dir;
    private ControllerGroup group;
    /** Creates tables while the load runs ({@link #createTables}). */
    private Thread creator;
    private final AtomicBoolean stop = new AtomicBoolean();
    /** Rows of the tables created while the bank runs, acknowledged: "t_3:2". */
    private final Set<String> rows = ConcurrentHashMap.newKeySet();
    private final List<String> unexpected = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void stopGroup() {
        if (group != null) {
            group.close();
        }
    }

    private SqliteFiles files(int member) {
        return new SqliteFiles(dir.resolve("c" + (member + 1)),
                member == 1 ? new String[] {"db1", "db2"} : new String[] {"db1", "db2", "db3"});
    }

    /** c1 and c3 replicating partially by {@link #RULES}, c2 fully; {@code distribution}: more attributes. */
    private void startGroup(String distribution) throws Exception {
        List<List<String>> urls = new ArrayList<>();
        for (int m = 0; m < 3; m++) {
            SqliteFiles f = files(m);
            urls.add(f.names().stream().map(f::url).toList());
        }
        group = new ControllerGroup(dir, 2, urls, false, false, false);
        group.requestManager(0, """
                <requestManager replication="RAIDb-2" waitPolicy="all">
                    <createTable pattern="acc" policy="backends" backends="c1-db2 c1-db3"/>
                    <createTable pattern="transfers" policy="backends" backends="c1-db1 c1-db2"/>
                    <createTable pattern="late_.*" policy="backends" backends="c1-db1"/>
                    <createTable policy="round-robin" count="2"/>
                  </requestManager>""");
        group.requestManager(2, """
                <requestManager replication="RAIDb-2" waitPolicy="all">
                    <createTable pattern="acc|notes" policy="backends" backends="c3-db2 c3-db3"/>
                    <createTable pattern="transfers" policy="backends" backends="c3-db1"/>
                    <createTable pattern="late_.*" policy="backends" backends="c3-db1"/>
                    <createTable policy="random" count="2"/>
                  </requestManager>""");
        if (!distribution.isEmpty()) {
            group.distributionAttributes(distribution);
        }
        group.startAll();
    }

    @Test
    void eachMemberPlacesTablesByItsOwnRulesAndEveryHolderEndsIdentical() throws Exception {
        startGroup("");
        GroupBank bank = startLoadOnC1();
        try {
            group.killAndRestartPrimaryThenFollower(Duration.ofSeconds(3)); // c1, the partial primary, first
            makePrimary(2); // c3, partial too, starts serving from what it applied as a follower
            Thread.sleep(3_000);
        } finally {
            stopLoad(bank);
        }
        assertTrue(bank.acknowledged.size() > 50, "too few transfers went through: " + bank.summary());
        assertEquals(List.of(), unexpected, "errors creating and filling tables" + group.outputs());
        bank.check(group);
        String lastTable = checkCreatedRows();
        assertFollowersRead(lastTable);
        Map<String, Map<String, List<String>>> holders = awaitIdenticalHolders();
        assertPlacedByEachMembersRules(holders);
        System.out.println("distributed partial replication: " + bank.summary() + "; " + rows.size()
                + " rows in tables created while running; holders " + holders);
    }

    /**
     * Compaction with partial replication (docs/distribution.md, Compaction): under the bank load, with
     * tables created while it runs, c3 (partial) is killed; c1 (partial, primary and so the log's
     * leader) compacts by itself every 400 entries and when asked — its dump the union of its three
     * backends — and so does c2. c3, restarted, lacks what they compacted away: it restores the
     * leader's dump, each table only on the backends its own rules choose, and follows from there;
     * it then compacts by itself as a follower, the union of its backends, while c2 (full) is down; c2
     * back restores that union dump (c1's or c3's, whichever leads). Asked once the load has stopped,
     * c3 compacts again. Every holder of a
     * table ends identical to every other, each table exactly where its member's rules say.
     */
    @Test
    void partialMembersCompactAndOneThatWasDownRestoresTheDumpByItsRules() throws Exception {
        startGroup("compactAfter=\"400\"");
        GroupBank bank = startLoadOnC1();
        int away = 2;
        String leader;
        try {
            Thread.sleep(2_000);
            group.kill(away);
            long awayHolds;
            try (ControllerJmx jmx = group.jmx(0)) {
                awayHolds = (Long) jmx.group().get("commitIndex");
            }
            group.awaitFirstIndexAbove(0, awayHolds, Duration.ofSeconds(90)); // c1, partial and primary, compacts by itself under the load
            try (ControllerJmx jmx = group.jmx(0)) {
                assertTrue(jmx.compactGroupLog() > 0, "asked, c1 dumps at a log position" + group.outputs());
            }
            group.awaitFirstIndexAbove(1, awayHolds, Duration.ofSeconds(90));
            try (ControllerJmx jmx = group.jmx(0)) {
                leader = String.valueOf(jmx.group().get("logLeader"));
            }
            group.start(away);
            awaitRestored(away);
            // then c2 (full) is down while c1 and c3 (partial, a follower) compact by themselves: back, it
            // restores the leader's dump, which is a partial member's whichever leads
            Thread.sleep(2_000);
            group.kill(1);
            long fullHolds;
            try (ControllerJmx jmx = group.jmx(0)) {
                fullHolds = (Long) jmx.group().get("commitIndex");
            }
            group.awaitFirstIndexAbove(0, fullHolds, Duration.ofSeconds(90));
            group.awaitFirstIndexAbove(away, fullHolds, Duration.ofSeconds(90));
            group.start(1);
            awaitRestored(1);
            Thread.sleep(3_000);
        } finally {
            stopLoad(bank);
        }
        assertTrue(bank.acknowledged.size() > 50, "too few transfers went through: " + bank.summary());
        assertEquals(List.of(), unexpected, "errors creating and filling tables" + group.outputs());
        bank.check(group);
        checkCreatedRows();
        Map<String, Map<String, List<String>>> holders = awaitIdenticalHolders();
        assertPlacedByEachMembersRules(holders);
        try (ControllerJmx jmx = group.jmx(away)) { // once caught up: a follower dumps when no transaction is open
            assertTrue(jmx.compactGroupLog() > 0, "c3, a partial follower, compacts when asked" + group.outputs());
            assertTrue((Long) jmx.group().get("firstIndex") > 1, "c3's log compacted" + group.outputs());
        }
        String c1 = group.process(0).output();
        assertTrue(c1.contains("c1 compacted its log of group"), "c1 compacted" + group.outputs());
        assertTrue(group.process(away).output().contains("c3 places the dump's tables by its rules"),
                "c3 restored a dump by its own rules" + group.outputs());
        assertTrue(group.process(1).output().contains("c2 restores its backends from the group's dump"),
                "c2 (full) restored a partial member's dump" + group.outputs());
        System.out.println("partial compaction: " + bank.summary() + "; c3 restored the dump of the log's leader, "
                + leader + "; holders " + holders);
    }

    /** Waits until member i says it restored its backends from the group's dump. */
    private void awaitRestored(int member) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < end) {
            if (group.process(member).output().contains("restores its backends from the group's dump")) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(group.name(member) + " did not restore the group's dump" + group.outputs());
    }

    @Test
    void aMemberReplicatingFullyDoesNotTakeOverThoseOfAPartialMember() throws Exception {
        List<List<String>> urls = new ArrayList<>();
        SqliteFiles c1 = new SqliteFiles(dir.resolve("c1"), "db1", "db2");
        urls.add(c1.names().stream().map(c1::url).toList());
        group = new ControllerGroup(dir, 2, urls, false, false, false);
        group.requestManager(0, """
                <requestManager replication="RAIDb-2" waitPolicy="all">
                    <createTable pattern="acc" policy="backends" backends="c1-db1"/>
                    <createTable policy="backends" backends="c1-db2"/>
                  </requestManager>""");
        group.declareStandby(1, 0);
        group.startAll();
        makePrimary(1);
        GroupBank.create(group.url());
        awaitAppliedAndFloorsRaised(c1);
        group.kill(0);
        try (ControllerJmx jmx = group.jmx(1)) {
            String refused = "";
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            do { // until the group's view has excluded the killed c1 (about a second) and, if c1 led the log, a new
                // leader is elected (until then the take-over cannot be logged: 58030, "no leader")
                Thread.sleep(500);
                refused = ControllerJmx.messages(assertThrows(Exception.class, () -> jmx.takeOverBackends("c1")));
            } while ((refused.contains("is connected to group") || refused.contains("no leader"))
                    && System.nanoTime() < end);
            assertTrue(refused.contains("took only []"), refused);
        }
        String said = group.process(1).output();
        assertTrue(said.contains("backend c1-db1 lacks tables the others hold (notes, transfers): its owner replicated"
                + " partially"), group.outputs());
        // or its replay reached a write to the table it lacks first: refused as diverged, out of service either way
        assertTrue(said.contains("backend c1-db2 lacks tables the others hold (acc)")
                || said.contains("backend c1-db2 diverged during replay") && said.contains("no such table: acc"),
                group.outputs());
    }

    /** c1 made primary, the bank load and a table created every 700 ms while it runs. */
    private GroupBank startLoadOnC1() throws Exception {
        makePrimary(0);
        GroupBank.create(group.url());
        GroupBank bank = new GroupBank(group.url(), CLIENTS);
        creator = new Thread(this::createTables, "table-creator");
        bank.start();
        creator.start();
        return bank;
    }

    private void stopLoad(GroupBank bank) throws Exception {
        stop.set(true);
        creator.join(60_000);
        bank.stop();
    }

    /** c1 (a follower) has applied the accounts, and raised its backends' floors past every unit: nothing to replay. */
    private void awaitAppliedAndFloorsRaised(SqliteFiles c1) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < end) {
            try (Connection db1 = c1.direct("db1"); Connection db2 = c1.direct("db2")) {
                if (tables(c1, "db1").contains("acc") && one(db1, "SELECT COUNT(*) FROM acc") == GroupBank.ACCOUNTS
                        && AppliedPositions.read(db1, AppliedTable.of(Engine.SQLITE)).above().isEmpty()
                        && AppliedPositions.read(db2, AppliedTable.of(Engine.SQLITE)).above().isEmpty()) {
                    return;
                }
            } catch (SQLException notYet) {
                // the records are created with the first catch-up
            }
            Thread.sleep(200);
        }
        throw new AssertionError("c1 did not catch up" + group.outputs());
    }

    /**
     * Hands the primary role to c-{@code member}: the third member is killed (-9), the primary steps
     * down (a member that resigned is the others' last choice), then the third is restarted.
     */
    private void makePrimary(int member) throws Exception {
        int primary = group.primary(60);
        assertTrue(primary >= 0, "no primary was elected" + group.outputs());
        if (primary == member) {
            return;
        }
        int third = 3 - primary - member;
        group.kill(third);
        try (ControllerJmx jmx = group.jmx(primary)) {
            jmx.stepDown();
        }
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (group.primary(30) != member) {
            assertTrue(System.nanoTime() < end, group.name(member) + " did not become primary" + group.outputs());
            Thread.sleep(200);
        }
        group.start(third);
    }

    /** Creates a table every 700 ms through the group, with five rows, while the bank runs. */
    private void createTables() {
        for (int n = 1; !stop.get(); n++) {
            String table = "t_" + n;
            try (Connection c = DriverManager.getConnection(group.url()); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE IF NOT EXISTS " + table + " (id INTEGER PRIMARY KEY, v INTEGER)");
                for (int k = 1; k <= 5; k++) {
                    s.executeUpdate("INSERT INTO " + table + " VALUES (" + k + ", " + k * n + ")");
                    rows.add(table + ":" + k);
                }
            } catch (SQLException e) {
                String state = e.getSQLState() == null ? "" : e.getSQLState();
                if (!state.startsWith("08") && !state.startsWith("40")) { // a failover, which the bank also sees
                    unexpected.add(table + ": " + state + " " + e.getMessage());
                }
            }
            try {
                Thread.sleep(700);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Every acknowledged row of the tables created while running is there; returns the last such table. */
    private String checkCreatedRows() throws SQLException {
        Map<String, Set<Long>> expected = new TreeMap<>();
        for (String row : rows) {
            String[] parts = row.split(":");
            expected.computeIfAbsent(parts[0], t -> new TreeSet<>()).add(Long.parseLong(parts[1]));
        }
        assertTrue(expected.size() >= 5, "too few tables created while running: " + expected.keySet());
        String last = null;
        try (Connection c = DriverManager.getConnection(group.url()); Statement s = c.createStatement()) {
            for (Map.Entry<String, Set<Long>> t : expected.entrySet()) {
                Set<Long> present = new TreeSet<>();
                try (ResultSet rs = s.executeQuery("SELECT id FROM " + t.getKey())) {
                    while (rs.next()) {
                        present.add(rs.getLong(1));
                    }
                }
                assertTrue(present.containsAll(t.getValue()), t.getKey() + ": acknowledged rows " + t.getValue()
                        + ", present " + present);
                if (last == null || Integer.parseInt(t.getKey().substring(2)) > Integer.parseInt(last.substring(2))) {
                    last = t.getKey();
                }
            }
        }
        return last;
    }

    /**
     * Each follower's read-only session (current reads) finds a table created while it served; one
     * replicating partially also knows where it placed a table created after its readers started:
     * a join with a table on other backends of it is refused (0A000, saying where each is), as on
     * its primary, rather than sent to backends that lack one of them.
     */
    private void assertFollowersRead(String table) throws Exception {
        int primary = group.primary(30);
        long rowsThere;
        try (Connection c = DriverManager.getConnection(group.url()); Statement s = c.createStatement()) {
            rowsThere = one(c, "SELECT COUNT(*) FROM " + table);
            s.executeUpdate("CREATE TABLE late_1 (id INTEGER PRIMARY KEY, v INTEGER)");
            s.executeUpdate("INSERT INTO late_1 VALUES (1, 1), (2, 2), (3, 3)");
        }
        int partialFollowers = 0;
        for (int m = 0; m < group.size(); m++) {
            if (m == primary) {
                continue;
            }
            try (Connection c = DriverManager.getConnection(group.url(m,
                    "readOnly=true&followerReads=current&failoverTimeout=30000"))) {
                assertEquals(rowsThere, one(c, "SELECT COUNT(*) FROM " + table), group.name(m) + " reads " + table);
                assertEquals(GroupBank.ACCOUNTS * GroupBank.BALANCE, one(c, "SELECT SUM(bal) FROM acc"),
                        group.name(m) + " reads the accounts");
                assertEquals(3, one(c, "SELECT COUNT(*) FROM late_1"), group.name(m) + " reads late_1");
                if (m != 1) {
                    partialFollowers++;
                    SQLException refused = assertThrows(SQLException.class,
                            () -> one(c, "SELECT COUNT(*) FROM late_1 l JOIN acc a ON a.id = l.id"));
                    String name = group.name(m);
                    assertEquals("0A000", refused.getSQLState(), name + ": " + refused.getMessage());
                    assertTrue(refused.getMessage().contains("late_1 is on " + name + "-db1")
                            && refused.getMessage().contains("acc is on " + name + "-db2, " + name + "-db3"),
                            refused.getMessage());
                }
            }
        }
        assertTrue(partialFollowers > 0, "c1 and c3 cannot both be primary");
    }

    /**
     * Once the followers have caught up: per table, per member, the backends holding it; every holder
     * of a table on every member holds the same rows (ordered checksums).
     */
    private Map<String, Map<String, List<String>>> awaitIdenticalHolders() throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String differences = "";
        while (System.nanoTime() < end) {
            Map<String, Map<String, List<String>>> holders = new TreeMap<>();
            Map<String, Set<String>> checksums = new TreeMap<>();
            for (int m = 0; m < group.size(); m++) {
                SqliteFiles f = files(m);
                for (String b : f.names()) {
                    for (String table : tables(f, b)) {
                        holders.computeIfAbsent(table, t -> new TreeMap<>())
                                .computeIfAbsent(group.name(m), x -> new ArrayList<>()).add(b);
                        checksums.computeIfAbsent(table, t -> new TreeSet<>()).add(f.checksum(b, table, "id"));
                    }
                }
            }
            differences = "";
            for (Map.Entry<String, Set<String>> c : checksums.entrySet()) {
                if (c.getValue().size() != 1) {
                    differences += "\n" + c.getKey() + " held by " + holders.get(c.getKey()) + ": " + c.getValue();
                }
            }
            if (differences.isEmpty()) {
                return holders;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("holders of a table differ:" + differences + group.outputs());
    }

    /** Each member holds each table (none left nowhere) exactly where its first matching rule allows. */
    private void assertPlacedByEachMembersRules(Map<String, Map<String, List<String>>> holders) {
        assertTrue(holders.keySet().containsAll(List.of("acc", "transfers", "notes")), holders.keySet().toString());
        for (Map.Entry<String, Map<String, List<String>>> t : holders.entrySet()) {
            for (int m = 0; m < group.size(); m++) {
                List<String> on = t.getValue().getOrDefault(group.name(m), List.of());
                Rule rule = RULES.get(m).stream().filter(r -> r.table().matcher(t.getKey()).matches()).findFirst()
                        .orElseThrow();
                assertFalse(on.isEmpty(), group.name(m) + " holds " + t.getKey() + " nowhere: " + t.getValue());
                assertTrue(rule.backends().containsAll(on) && on.size() == rule.count(), group.name(m) + " holds "
                        + t.getKey() + " on " + on + ", its rules say " + rule.count() + " of " + rule.backends());
            }
        }
    }

    /** The workload's tables a backend file holds. */
    private static List<String> tables(SqliteFiles f, String backend) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Connection c = f.direct(backend); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
            while (rs.next()) {
                if (TABLES.matcher(rs.getString(1)).matches()) {
                    names.add(rs.getString(1));
                }
            }
        }
        return names;
    }
}
