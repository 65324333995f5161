package org.phalanx.controller.vdb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.recoverylog.RecoveryLog;
import org.phalanx.recoverylog.RecoveryLogException;

/**
 * What dumps the controller's last stop cut short left behind, cleared at start: a dump is
 * written to a hidden temporary file in the dump folder and renamed into place when complete, and
 * its checkpoint ({@code dump-<name>}) is recorded before it is written. A crash in between leaves
 * the temporary file and a checkpoint of a dump that does not exist, which would hold purges back
 * for ever (and {@code deleteDump} could not release it: there is no such dump).
 */
final class InterruptedDumps {
    private static final Logger LOG = LogManager.getLogger(InterruptedDumps.class);
    private static final String CHECKPOINT_PREFIX = "dump-";

    private InterruptedDumps() {
    }

    /**
     * Before the virtual database starts (no dump is being written): deletes the temporary files
     * of unfinished dumps and releases the checkpoints of dumps missing from the dump folder.
     * Nothing is done without the folder (an unmounted disk is not a reason to release anything).
     */
    static void clear(String virtualDatabase, RecoveryLog log, Path dumpDir) {
        if (dumpDir == null || !Files.isDirectory(dumpDir)) {
            return;
        }
        try (Stream<Path> listing = Files.list(dumpDir)) {
            List<Path> temporary = listing.filter(f -> {
                String n = f.getFileName().toString();
                // a dump's temporary file, or what SQLite keeps beside a temporary database (-wal, -shm)
                return n.startsWith(".") && (n.endsWith(".tmp") || n.contains(".tmp-")) && Files.isRegularFile(f);
            }).toList();
            for (Path f : temporary) {
                Files.deleteIfExists(f);
                LOG.info("virtual database {}: deleted {}, what a dump cut short by the last stop had written",
                        virtualDatabase, f);
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("virtual database {}: could not clear unfinished dumps in {}: {}", virtualDatabase, dumpDir,
                    e.toString());
        }
        try {
            for (Map.Entry<String, Long> c : log.checkpoints().entrySet()) {
                String name = c.getKey();
                if (name.startsWith(CHECKPOINT_PREFIX)
                        && !Files.exists(dumpDir.resolve(name.substring(CHECKPOINT_PREFIX.length())))) {
                    log.removeCheckpoint(name);
                    LOG.info("virtual database {}: checkpoint {} (log position {}) released: there is no such dump in {}"
                            + " (it was cut short, or deleted by hand)", virtualDatabase, name, c.getValue(), dumpDir);
                }
            }
        } catch (RecoveryLogException | java.nio.file.InvalidPathException e) {
            LOG.warn("virtual database {}: could not release the checkpoints of missing dumps: {}", virtualDatabase,
                    e.getMessage());
        }
    }
}
