package org.phalanx.requestmanager.distribution;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.phalanx.recoverylog.GeneratedKeys;
import org.phalanx.requestmanager.recovery.RememberedKeys;

/**
 * The update counts (and generated keys) of the statements this member applied for clients' last
 * requests, kept in a file of the member's log folder so that, restarted, it still answers a driver
 * asking whether its request was applied with the count and keys it had ({@link RequestOutcomes}).
 *
 * <p>A record is written (not forced to disk) when the statement is counted, which on a follower is
 * before its backends commit it: a process killed after that commit finds the record at its
 * restart; only the host's crash can lose it (the count is then answered unknown). The file is
 * rewritten with the records still wanted once it holds {@link #REWRITE_AFTER} more, and at open,
 * which also drops a record cut short by a crash.
 *
 * <pre>
 * record: int64 position, int64 count, bool has keys, then (if so) {@link GeneratedKeys#write}
 * </pre>
 */
final class OutcomeJournal implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(OutcomeJournal.class);
    /** Records appended before the file is rewritten with those still wanted. */
    static final int REWRITE_AFTER = 20_000;

    /** One statement's count and keys. */
    record Counted(long position, long count, GeneratedKeys keys) {
    }

    private final Path file;
    private final Map<Long, Counted> recalled;
    private DataOutputStream out;
    private int appended;

    /** Opens (creates) {@code file}: what it held is {@link #recalled()}. */
    OutcomeJournal(Path file) {
        this.file = file;
        this.recalled = read(file);
        rewrite(List.copyOf(recalled.values()));
    }

    /** The records the file held at open, by position. */
    Map<Long, Counted> recalled() {
        return recalled;
    }

    /** Keeps {@code c}; past {@link #REWRITE_AFTER} records, rewrites the file with {@code wanted} first. */
    synchronized void append(Counted c, Supplier<List<Counted>> wanted) {
        if (out == null) {
            return; // the file could not be written: counts are kept in memory only (logged once)
        }
        if (appended >= REWRITE_AFTER) {
            rewrite(wanted.get());
            if (out == null) {
                return;
            }
        }
        try {
            write(out, c);
            out.flush(); // into the operating system: a killed process loses nothing
            appended++;
        } catch (IOException e) {
            failed(e);
        }
    }

    private static void write(DataOutputStream out, Counted c) throws IOException {
        out.writeLong(c.position());
        out.writeLong(c.count());
        out.writeBoolean(c.keys() != null);
        if (c.keys() != null) {
            c.keys().write(out);
        }
    }

    private static Map<Long, Counted> read(Path file) {
        Map<Long, Counted> records = new HashMap<>();
        if (!Files.exists(file)) {
            return records;
        }
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            while (true) {
                long position;
                try {
                    position = in.readLong();
                } catch (EOFException end) {
                    return records;
                }
                long count = in.readLong();
                GeneratedKeys keys = in.readBoolean() ? GeneratedKeys.read(in, RememberedKeys.MAX_ROWS) : null;
                records.put(position, new Counted(position, count, keys));
            }
        } catch (IOException e) {
            // a record cut short by a crash (or damaged): those before it are kept
            LOG.info("{}: read {} request outcomes, the rest is unreadable ({}): dropped", file, records.size(),
                    e.toString());
            return records;
        }
    }

    /** Replaces the file with {@code records} (through a new file renamed over it) and appends after them. */
    private synchronized void rewrite(List<Counted> records) {
        closeQuietly();
        Path next = file.resolveSibling(file.getFileName() + ".new");
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            try (DataOutputStream w = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(next)))) {
                for (Counted c : records) {
                    write(w, c);
                }
            }
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            OutputStream os = Files.newOutputStream(file, StandardOpenOption.APPEND);
            out = new DataOutputStream(new BufferedOutputStream(os));
            appended = 0;
        } catch (IOException | UncheckedIOException e) {
            failed(e);
        }
    }

    private void failed(Exception e) {
        LOG.warn("{}: cannot keep request outcomes ({}); a restarted member answers their counts unknown", file,
                e.toString());
        closeQuietly();
    }

    private void closeQuietly() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException ignored) {
                // the records flushed so far are in the file
            }
            out = null;
        }
    }

    @Override
    public synchronized void close() {
        closeQuietly();
    }
}
