package org.phalanx.requestmanager.verify;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.recoverylog.dump.DumpInfo;
import org.phalanx.recoverylog.dump.PortableBackuper;
import org.phalanx.recoverylog.dump.Progress;
import org.phalanx.requestmanager.backend.Backend;
import org.phalanx.requestmanager.backend.Backends;
import org.phalanx.requestmanager.recovery.BackendAdministration;

/**
 * Acts on the replicas a verification found outvoted: disables them (their data is in doubt, as
 * for a replica that disagreed on a write), and for {@link OnDifference#REBUILD} brings each back
 * by the usual recovery: a dump of a majority replica taken while it serves, restored onto the
 * outvoted one, then the log replayed from the dump's checkpoint. Differences no majority decided
 * are never acted on.
 */
final class DifferenceActions {
    private static final Logger LOG = LogManager.getLogger(DifferenceActions.class);

    private final String virtualDatabase;
    private final Backends backends;
    private final BackendAdministration admin;
    /** Under partial replication replicas hold different tables: no other replica's dump fits. */
    private final boolean partial;

    DifferenceActions(String virtualDatabase, Backends backends, BackendAdministration admin, boolean partial) {
        this.virtualDatabase = virtualDatabase;
        this.backends = backends;
        this.admin = admin;
        this.partial = partial;
    }

    /** What was done, one line per backend. */
    List<String> apply(VerificationReport report, OnDifference action, Path dumpDir, Progress progress) {
        List<String> done = new ArrayList<>();
        List<String> outvoted = report.minority();
        if (action == OnDifference.REPORT || outvoted.isEmpty()) {
            return done;
        }
        for (String name : outvoted) {
            Backend b;
            try {
                b = backends.named(name);
            } catch (SQLException e) {
                continue;
            }
            if (!b.isEnabled()) {
                done.add("backend " + name + " was already out of service");
                continue;
            }
            String reason = "verification found differences: " + summary(report, name);
            b.disable(reason);
            String line = "backend " + name + " disabled (" + reason + ")";
            if (action == OnDifference.REBUILD) {
                line += "; " + rebuild(b, outvoted, dumpDir, progress);
            }
            LOG.warn("virtual database {}: {}", virtualDatabase, line);
            done.add(line);
        }
        return done;
    }

    /** The differences of one backend, for its disabled reason. */
    private static String summary(VerificationReport report, String backend) {
        List<String> parts = new ArrayList<>();
        for (TableReport t : report.tables()) {
            if (!t.minority().contains(backend)) {
                continue;
            }
            long rows = t.rows().stream().filter(r -> r.decided() && r.backends().contains(backend)).count();
            parts.add(t.keyed() ? t.table() + " (" + rows + (rows == TableVerifier.MAX_ROWS_LISTED ? "+" : "")
                    + " rows)" : t.table() + " (whole table)");
        }
        return "outvoted by the majority on " + String.join(", ", parts);
    }

    /** Restores a majority replica's dump onto the disabled backend and replays; says how it went. */
    private String rebuild(Backend target, List<String> outvoted, Path dumpDir, Progress progress) {
        if (!admin.hasRecoveryLog()) {
            return "not rebuilt: the virtual database has no recovery log (restore a dump onto it, then enable it)";
        }
        if (partial) {
            return "not rebuilt: under partial replication no other replica holds exactly its tables (restore a dump"
                    + " of its own tables onto it, then enable it)";
        }
        Backend source = backends.enabled().stream().filter(b -> !outvoted.contains(b.name())).findFirst().orElse(null);
        if (source == null) {
            return "not rebuilt: no replica of the majority is in service";
        }
        Path file = null;
        DumpInfo dump = null;
        try {
            Path dir = dumpDir != null ? dumpDir : Files.createTempDirectory("phalanx-verify");
            Files.createDirectories(dir);
            file = dir.resolve("verify-rebuild-" + target.name() + "-" + System.currentTimeMillis());
            dump = admin.backup(source.name(), file, PortableBackuper.FORMAT, progress);
            admin.restore(target.name(), file, true, progress);
            admin.enableBackend(target.name());
            return "rebuilt from a dump of " + source.name() + " and the log replayed: back in service";
        } catch (SQLException | IOException | RuntimeException e) {
            return "rebuild failed (" + e.getMessage() + "): restore a dump onto it, then enable it";
        } finally {
            if (dump != null) {
                try {
                    admin.removeCheckpoint(dump.checkpointName()); // the dump goes: the log need not keep its entries
                } catch (SQLException e) {
                    LOG.warn("virtual database {}: checkpoint {} of the rebuild dump not released: {}", virtualDatabase,
                            dump.checkpointName(), e.getMessage());
                }
            }
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    LOG.warn("virtual database {}: rebuild dump {} not deleted: {}", virtualDatabase, file, e.toString());
                }
            }
        }
    }
}
