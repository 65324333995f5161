package org.phalanx.controller.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.phalanx.testkit.db.TestDatabases;

/**
 * A distributed virtual database whose members run different engines (issue 19, done-when 4): one
 * controller over two PostgreSQL databases, one over two MariaDB databases, one over two SQLite
 * files. The bank workload goes on while the primary is killed and restarted, then a follower;
 * afterwards the six replicas, on three engines, hold the same rows.
 */
class DistributedEnginesIT {
    private static final List<String> DATABASES = List.of("group_db1", "group_db2");

    @TempDir
    Path dir;
    private ControllerGroup group;

    @AfterEach
    void stop() {
        if (group != null) {
            group.close();
        }
        DATABASES.forEach(TestDatabases::dropPostgres);
        DATABASES.forEach(TestDatabases::dropMariaDb);
    }

    @Test
    void postgresqlMariaDbAndSqliteMembersEndIdenticalAfterFailovers() throws Exception {
        List<String> postgres = DATABASES.stream().map(TestDatabases::createPostgres).toList();
        List<String> mariadb = DATABASES.stream().map(d -> TestDatabases.createMariaDb(d,
                TestDatabases.MARIADB_BINARY_COLLATION)).toList();
        group = new ControllerGroup(dir, 2, List.of(postgres, mariadb), false, false, false);
        group.startAll();
        assertTrue(group.primary(60) >= 0, "no primary was elected" + group.outputs());
        GroupBank.create(group.url());
        GroupBank bank = new GroupBank(group.url(), 8);
        bank.start();
        try {
            group.killAndRestartPrimaryThenFollower(Duration.ofSeconds(3));
        } finally {
            bank.stop();
        }
        assertTrue(bank.acknowledged.size() > 50, "too few transfers went through: " + bank.summary());
        bank.check(group);
        GroupBank.assertReplicasIdentical(group);
        System.out.println("engines group: " + bank.summary());
    }
}
