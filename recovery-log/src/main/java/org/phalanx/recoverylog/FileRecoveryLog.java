package org.phalanx.recoverylog;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A recovery log in a directory: append-only segment files ({@link SegmentFormat}) holding
 * length-prefixed, CRC-checked records, rolled at a size limit, plus a {@link MetadataFile}
 * sidecar for checkpoints and states.
 *
 * <p>Opening scans and validates every segment. An incomplete last record (a crash in the
 * middle of a write) is cut away, logged as a warning and reported by {@link #tailRepair()}; any
 * other damaged record fails the open with a {@link LogCorruptedException} naming the file and
 * offset. A directory is used by one log at a time (a lock file enforces it).
 *
 * <p>A write that fails (a full disk, an I/O error, a failed fsync) is undone before anything
 * else is written: the segment is cut back to its last durable record and segments the write
 * created are deleted, so a refused entry is never in the log and no partial record stays in the
 * middle of it. If the undo fails too (the disk is gone), it is retried before every later write,
 * and nothing is written until it succeeds.
 */
public final class FileRecoveryLog implements RecoveryLog {
    public static final long DEFAULT_SEGMENT_SIZE = 64L << 20;
    private static final Logger LOG = LogManager.getLogger(FileRecoveryLog.class);
    private static final int MAX_GROUP = 4096;

    /** One segment file and what the log knows of it; guarded by the log's monitor. */
    private static final class Segment {
        final Path path;
        final long sequence;
        long size;
        long firstPosition; // 0 while empty
        long lastPosition;
        long entries;

        Segment(Path path, long sequence) {
            this.path = path;
            this.sequence = sequence;
        }
    }

    /** What a reader needs of a segment, copied when the read starts. */
    private record SegmentView(Path path, long size, long lastPosition) {
    }

    /** What a batch made durable in one segment, published once the whole batch is durable. */
    private record Publication(Segment segment, long newSize, int from, int to, long first) {
    }

    /** What a failed write left to undo: the segment to cut back to its durable size, the segments it created. */
    private record Undo(Segment segment, long size, List<Path> created) {
    }

    private final Path dir;
    private final long segmentSize;
    private final SegmentChannels channels;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final List<Segment> segments = new ArrayList<>();
    private final MetadataFile.Content metadata;
    private final TailRepair tailRepair;
    private final GroupCommit groupCommit;
    private final SegmentFormat.RecordEncoder encoder = new SegmentFormat.RecordEncoder(); // writer thread only
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream(1 << 16); // writer thread only
    private FileChannel active; // writer thread only (and open/close)
    private Undo undo; // writer thread only
    private boolean closed;

    /** Opens (or creates) the log in {@code dir} with 64 MiB segments. */
    public FileRecoveryLog(Path dir) {
        this(dir, DEFAULT_SEGMENT_SIZE);
    }

    /**
     * Opens (or creates) the log in {@code dir}, rolling to a new segment file once one reaches
     * {@code segmentSize} bytes (a single larger entry still fits in a segment of its own).
     */
    public FileRecoveryLog(Path dir, long segmentSize) {
        this(dir, segmentSize, SegmentChannels.FILES);
    }

    /**
     * As {@link #FileRecoveryLog(Path, long)}, writing segment files through {@code channels}
     * (tests: a disk that fills up or fails).
     */
    public FileRecoveryLog(Path dir, long segmentSize, SegmentChannels channels) {
        if (segmentSize < 1024) {
            throw new IllegalArgumentException("segment size must be at least 1024 bytes, got " + segmentSize);
        }
        this.dir = Objects.requireNonNull(dir, "dir");
        this.segmentSize = segmentSize;
        this.channels = Objects.requireNonNull(channels, "channels");
        FileChannel channel = null;
        try {
            Files.createDirectories(dir);
            channel = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock acquired;
            try {
                acquired = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                acquired = null;
            }
            if (acquired == null) {
                throw new RecoveryLogException("recovery log " + dir + " is already open (in this or another process)");
            }
            this.lockChannel = channel;
            this.lock = acquired;
            this.metadata = MetadataFile.read(dir);
            this.tailRepair = loadSegments();
            finishPurge();
            Segment last = segments.get(segments.size() - 1);
            this.active = channels.open(last.path, StandardOpenOption.WRITE);
            active.position(last.size);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new RecoveryLogException("cannot open recovery log " + dir + ": " + e, e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
        if (tailRepair != null) {
            LOG.warn("Recovery log {}: {}; only an unacknowledged write can have been lost", dir, tailRepair);
        }
        this.groupCommit = new GroupCommit("recovery-log-writer " + dir.getFileName(), this::writeDurably,
                Math.max(lastSegmentPosition(), metadata.purgedThrough), MAX_GROUP);
    }

    /** What opening had to repair, if anything. */
    public Optional<TailRepair> tailRepair() {
        return Optional.ofNullable(tailRepair);
    }

    public Path directory() {
        return dir;
    }

    /** How many segment files the log has now. */
    public synchronized int segmentCount() {
        return segments.size();
    }

    // ---- opening

    private TailRepair loadSegments() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> SegmentFormat.sequence(p) >= 0)
                    .sorted((a, b) -> Long.compare(SegmentFormat.sequence(a), SegmentFormat.sequence(b)))
                    .toList();
        }
        TailRepair repair = null;
        long previousPosition = 0;
        for (int i = 0; i < files.size(); i++) {
            Path file = files.get(i);
            long sequence = SegmentFormat.sequence(file);
            if (i > 0 && sequence != segments.get(i - 1).sequence + 1) {
                throw new LogCorruptedException(file, 0, "segment " + (segments.get(i - 1).sequence + 1)
                        + " is missing before it");
            }
            boolean last = i == files.size() - 1;
            Segment segment = new Segment(file, sequence);
            long fileSize = Files.size(file);
            try (SegmentReader reader = new SegmentReader(file, fileSize)) {
                while (reader.next()) {
                    long position = reader.position();
                    if (position <= previousPosition) {
                        throw new LogCorruptedException(file, reader.recordOffset(), "position " + position
                                + " does not follow position " + previousPosition);
                    }
                    previousPosition = position;
                    if (segment.entries++ == 0) {
                        segment.firstPosition = position;
                    }
                    segment.lastPosition = position;
                }
                SegmentReader.Damage damage = reader.damage();
                segment.size = reader.goodEnd();
                if (damage != null) {
                    if (!last || !isTornTail(file, damage, fileSize)) {
                        throw new LogCorruptedException(file, damage.offset(), damage.reason()
                                + (last ? "" : " (in a sealed segment)"));
                    }
                    repair = new TailRepair(file, damage.offset(), fileSize - damage.offset(), damage.reason());
                }
            }
            segments.add(segment);
        }
        if (repair != null) {
            Segment last = segments.get(segments.size() - 1);
            try (FileChannel channel = channels.open(last.path, StandardOpenOption.WRITE)) {
                channel.truncate(last.size);
                if (last.size == 0) {
                    channel.write(ByteBuffer.wrap(SegmentFormat.MAGIC));
                    last.size = SegmentFormat.MAGIC.length;
                }
                channel.force(true);
            }
        }
        if (segments.isEmpty()) {
            segments.add(createSegment(1));
        }
        return repair;
    }

    /** A cut-short write leaves an incomplete record, a final record failing its CRC, or zeros. */
    private static boolean isTornTail(Path file, SegmentReader.Damage damage, long fileSize) throws IOException {
        if (damage.torn() || damage.lastRecord()) {
            return true;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
            long at = damage.offset();
            while (at < fileSize) {
                buffer.clear();
                int n = channel.read(buffer, at);
                if (n < 0) {
                    break;
                }
                for (int i = 0; i < n; i++) {
                    if (buffer.get(i) != 0) {
                        return false;
                    }
                }
                at += n;
            }
        }
        return true;
    }

    /** Deletes sealed segments a purge had already given up (a crash between the sidecar write and the deletion). */
    private void finishPurge() throws IOException {
        while (segments.size() > 1 && segments.get(0).lastPosition <= metadata.purgedThrough) {
            Files.deleteIfExists(segments.remove(0).path);
        }
    }

    private Segment createSegment(long sequence) throws IOException {
        Path path = dir.resolve(SegmentFormat.fileName(sequence));
        try (FileChannel channel = channels.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(SegmentFormat.MAGIC));
            channel.force(true);
        }
        MetadataFile.syncDirectory(dir);
        Segment segment = new Segment(path, sequence);
        segment.size = SegmentFormat.MAGIC.length;
        return segment;
    }

    private synchronized long lastSegmentPosition() {
        long last = 0;
        for (Segment s : segments) {
            last = Math.max(last, s.lastPosition);
        }
        return last;
    }

    // ---- appending (writer thread)

    private void writeDurably(List<LogEntry> batch) throws IOException {
        repair(); // what a failed write left goes before anything else is written
        if (batch.isEmpty()) {
            return;
        }
        Segment start;
        synchronized (this) {
            start = segments.get(segments.size() - 1);
        }
        List<Segment> created = new ArrayList<>();
        List<Path> createdPaths = new ArrayList<>();
        List<Publication> publications = new ArrayList<>();
        try {
            Segment segment = start;
            long size = segment.size;
            long entries = segment.entries;
            long first = segment.firstPosition;
            pending.reset();
            int from = 0;
            for (int i = 0; i < batch.size(); i++) {
                int before = pending.size();
                int recordSize = encoder.encode(batch.get(i), pending);
                if (size + before + recordSize > segmentSize && entries + (i - from) > 0) {
                    // the record does not fit: seal this segment with what came before it
                    flush(pending.toByteArray(), 0, before);
                    publications.add(new Publication(segment, size + before, from, i, first));
                    segment = roll(segment, createdPaths);
                    created.add(segment);
                    size = segment.size;
                    entries = 0;
                    first = 0;
                    byte[] rest = pending.toByteArray();
                    pending.reset();
                    pending.write(rest, before, recordSize);
                    from = i;
                }
            }
            flush(pending.toByteArray(), 0, pending.size());
            publications.add(new Publication(segment, size + pending.size(), from, batch.size(), first));
        } catch (IOException | RuntimeException e) {
            undo = new Undo(start, start.size, createdPaths);
            try {
                repair();
            } catch (IOException again) {
                e.addSuppressed(again); // retried before the next write
            }
            throw e;
        }
        // readers and purges see the batch only once all of it is durable
        synchronized (this) {
            segments.addAll(created);
            for (Publication p : publications) {
                publish(p, batch);
            }
        }
    }

    private void flush(byte[] bytes, int offset, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
        while (buffer.hasRemaining()) {
            active.write(buffer);
        }
        active.force(false); // the one fsync of the group
    }

    private void publish(Publication p, List<LogEntry> batch) {
        Segment segment = p.segment();
        if (p.to() > p.from()) {
            segment.firstPosition = p.first() == 0 ? batch.get(p.from()).position() : p.first();
            segment.lastPosition = batch.get(p.to() - 1).position();
            segment.entries += p.to() - p.from();
        }
        segment.size = p.newSize();
    }

    private Segment roll(Segment sealed, List<Path> createdPaths) throws IOException {
        active.close();
        createdPaths.add(dir.resolve(SegmentFormat.fileName(sealed.sequence + 1))); // undone if the write fails
        Segment next = createSegment(sealed.sequence + 1);
        active = channels.open(next.path, StandardOpenOption.WRITE);
        active.position(next.size);
        return next;
    }

    /**
     * Undoes what a failed write left: deletes the segments it created and cuts the segment it
     * started in back to its durable size (a partial record, or whole records whose fsync failed:
     * after a failed fsync the kernel may have dropped them, so they are not trusted either).
     */
    private void repair() throws IOException {
        if (undo == null) {
            return;
        }
        closeQuietly(active); // it may be a segment being deleted
        for (Path p : undo.created()) {
            Files.deleteIfExists(p);
        }
        if (!undo.created().isEmpty()) {
            MetadataFile.syncDirectory(dir);
        }
        FileChannel channel = channels.open(undo.segment().path, StandardOpenOption.WRITE);
        try {
            channel.truncate(undo.size());
            channel.force(true);
            channel.position(undo.size());
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
        active = channel;
        LOG.info("Recovery log {}: a failed write was undone ({} cut back to {} bytes)", dir,
                undo.segment().path.getFileName(), undo.size());
        undo = null;
    }

    // ---- RecoveryLog

    @Override
    public CompletableFuture<Void> appendAsync(LogEntry entry) {
        return groupCommit.submit(Objects.requireNonNull(entry, "entry"));
    }

    @Override
    public long lastPosition() {
        return Math.max(groupCommit.lastDurable(), purgedThrough());
    }

    @Override
    public synchronized long purgedThrough() {
        return metadata.purgedThrough;
    }

    @Override
    public CloseableIterator<LogEntry> read(long afterPosition) {
        List<SegmentView> views = new ArrayList<>();
        synchronized (this) {
            checkOpen();
            if (afterPosition < metadata.purgedThrough) {
                throw new RecoveryLogException("cannot read the recovery log after position " + afterPosition
                        + ": entries up to " + metadata.purgedThrough + " were purged");
            }
            for (Segment s : segments) {
                if (s.entries > 0 && s.lastPosition > afterPosition) {
                    views.add(new SegmentView(s.path, s.size, s.lastPosition));
                }
            }
        }
        return new EntryReader(new Segments(views, afterPosition));
    }

    /** The stored entries of the segments one after the other, each opened only when it is reached. */
    private static final class Segments implements EntryReader.Source {
        private final List<SegmentView> views;
        private final long after;
        private int index;
        private SegmentReader current;

        Segments(List<SegmentView> views, long after) {
            this.views = views;
            this.after = after;
        }

        @Override
        public StoredEntry next() {
            try {
                while (true) {
                    if (current == null) {
                        if (index == views.size()) {
                            return null;
                        }
                        SegmentView view = views.get(index++);
                        try {
                            current = new SegmentReader(view.path(), view.size());
                        } catch (NoSuchFileException e) {
                            throw new RecoveryLogException("segment " + view.path() + " was purged while being read");
                        }
                    }
                    while (current.next()) {
                        if (current.position() > after) { // skipped records are never decoded
                            return current.fields();
                        }
                    }
                    if (current.damage() != null) {
                        SegmentReader.Damage d = current.damage();
                        throw new LogCorruptedException(current.file(), d.offset(), d.reason());
                    }
                    current.close();
                    current = null;
                }
            } catch (IOException e) {
                throw new RecoveryLogException("cannot read recovery log: " + e, e);
            }
        }

        @Override
        public RecoveryLogException damaged(StoredEntry entry, IOException reason) {
            return current.undecodable(reason); // the entry is the current record
        }

        @Override
        public void close() {
            if (current != null) {
                try {
                    current.close();
                } catch (IOException ignored) {
                    // read-only file: nothing to lose
                }
                current = null;
            }
        }
    }

    @Override
    public synchronized void setCheckpoint(String name, long position) {
        Objects.requireNonNull(name, "checkpoint name");
        checkOpen();
        if (position < metadata.purgedThrough) {
            throw new RecoveryLogException("checkpoint '" + name + "' at " + position + " would need entries up to "
                    + metadata.purgedThrough + ", which were purged");
        }
        if (position < 0) {
            throw new IllegalArgumentException("negative checkpoint position " + position);
        }
        Long old = metadata.checkpoints.put(name, position);
        saveMetadata(() -> restore(metadata.checkpoints, name, old));
    }

    @Override
    public synchronized Optional<Long> checkpoint(String name) {
        return Optional.ofNullable(metadata.checkpoints.get(name));
    }

    @Override
    public synchronized Map<String, Long> checkpoints() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(metadata.checkpoints));
    }

    @Override
    public synchronized void removeCheckpoint(String name) {
        checkOpen();
        Long old = metadata.checkpoints.remove(name);
        if (old != null) {
            saveMetadata(() -> metadata.checkpoints.put(name, old));
        }
    }

    @Override
    public synchronized long purge() {
        checkOpen();
        if (metadata.checkpoints.isEmpty()) {
            return 0;
        }
        long oldest = Collections.min(metadata.checkpoints.values());
        List<Segment> doomed = new ArrayList<>();
        for (int i = 0; i < segments.size() - 1; i++) { // never the segment being written
            Segment s = segments.get(i);
            if (s.lastPosition > oldest) {
                break;
            }
            doomed.add(s);
        }
        if (doomed.isEmpty()) {
            return 0;
        }
        long previous = metadata.purgedThrough;
        long through = Math.max(previous, doomed.get(doomed.size() - 1).lastPosition);
        metadata.purgedThrough = through;
        saveMetadata(() -> metadata.purgedThrough = previous); // first the promise, then the deletion
        long removed = 0;
        try {
            for (Segment s : doomed) {
                Files.deleteIfExists(s.path);
                segments.remove(s);
                removed += s.entries;
            }
            MetadataFile.syncDirectory(dir);
        } catch (IOException e) {
            throw new RecoveryLogException("purge of " + dir + " failed after removing " + removed + " entries: " + e, e);
        }
        LOG.info("Recovery log {}: purged {} entries up to position {}", dir, removed, through);
        return removed;
    }

    @Override
    public synchronized void putState(String key, String value) {
        Objects.requireNonNull(key, "state key");
        checkOpen();
        String old = value == null ? metadata.states.remove(key) : metadata.states.put(key, value);
        saveMetadata(() -> restore(metadata.states, key, old));
    }

    @Override
    public synchronized Map<String, String> states() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(metadata.states));
    }

    @Override
    public boolean settle() {
        return groupCommit.settle();
    }

    @Override
    public AppendStatistics appendStatistics() {
        return groupCommit.statistics();
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        groupCommit.close();
        try {
            active.close();
            lock.release();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            closeQuietly(lockChannel);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("recovery log " + dir + " is closed");
        }
    }

    private void saveMetadata(Runnable undo) {
        try {
            MetadataFile.write(dir, metadata);
        } catch (IOException e) {
            undo.run(); // memory keeps matching the disk
            throw new RecoveryLogException("cannot write recovery log metadata in " + dir + ": " + e, e);
        }
    }

    private static <K, V> void restore(Map<K, V> map, K key, V old) {
        if (old == null) {
            map.remove(key);
        } else {
            map.put(key, old);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing more to do
            }
        }
    }

    @Override
    public String toString() {
        return "FileRecoveryLog[" + dir + "]";
    }
}
