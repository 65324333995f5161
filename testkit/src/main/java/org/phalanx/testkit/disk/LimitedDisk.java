package org.phalanx.testkit.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A disk with limited room, for the files a test opens through {@link #open}: what is written
 * uses the room up, and a write beyond it is cut short, then fails with "No space left on
 * device", as on a full disk (ENOSPC). {@link #fill()} leaves no room, {@link #leave(long)} a few
 * bytes (a record written half), {@link #free()} makes room again; {@link #failSyncs(boolean)}
 * makes fsync fail as a failing disk does (EIO). Truncating gives no room back: the test says
 * when space returns. A test hands {@code disk::open} to the code under test in place of
 * {@link FileChannel#open(Path, OpenOption...)}, so that code's own failure handling runs.
 */
public final class LimitedDisk {
    private static final long UNLIMITED = Long.MAX_VALUE;

    private final AtomicLong room = new AtomicLong(UNLIMITED);
    private final AtomicLong refused = new AtomicLong();
    private volatile boolean syncFails;

    public FileChannel open(Path file, OpenOption... options) throws IOException {
        return new LimitedChannel(FileChannel.open(file, options));
    }

    /** No room left: every write fails. */
    public void fill() {
        room.set(0);
    }

    /** Only {@code bytes} of room left. */
    public void leave(long bytes) {
        room.set(bytes);
    }

    /** Room again, and syncs that work. */
    public void free() {
        room.set(UNLIMITED);
        syncFails = false;
    }

    public void failSyncs(boolean fail) {
        syncFails = fail;
    }

    /** How many writes failed for want of room so far. */
    public long refusedWrites() {
        return refused.get();
    }

    /** Takes up to {@code wanted} bytes of room and returns how many it got; none left fails as ENOSPC. */
    private int take(int wanted) throws IOException {
        while (wanted > 0) {
            long left = room.get();
            if (left == UNLIMITED) {
                return wanted;
            }
            if (left == 0) {
                refused.incrementAndGet();
                throw new IOException("No space left on device");
            }
            int got = (int) Math.min(left, wanted);
            if (room.compareAndSet(left, left - got)) {
                return got;
            }
        }
        return 0;
    }

    /** A channel whose writes use the disk's room (a short write when it runs out). */
    private final class LimitedChannel extends FileChannel {
        private final FileChannel file;

        LimitedChannel(FileChannel file) {
            this.file = file;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            int n = take(src.remaining());
            if (n == src.remaining()) {
                return file.write(src);
            }
            ByteBuffer part = src.duplicate();
            part.limit(part.position() + n);
            int written = file.write(part);
            src.position(src.position() + written);
            return written;
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            int n = take(src.remaining());
            if (n == src.remaining()) {
                return file.write(src, position);
            }
            ByteBuffer part = src.duplicate();
            part.limit(part.position() + n);
            int written = file.write(part, position);
            src.position(src.position() + written);
            return written;
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            long total = 0;
            for (int i = offset; i < offset + length; i++) {
                int wanted = srcs[i].remaining();
                if (wanted == 0) {
                    continue;
                }
                int written;
                try {
                    written = write(srcs[i]);
                } catch (IOException e) {
                    if (total > 0) {
                        return total; // a short write first, the failure on the next call
                    }
                    throw e;
                }
                total += written;
                if (written < wanted) {
                    break;
                }
            }
            return total;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            if (syncFails) {
                throw new IOException("Input/output error");
            }
            file.force(metaData);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) {
            throw new UnsupportedOperationException("not counted against the disk's room");
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return file.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return file.read(dsts, offset, length);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return file.read(dst, position);
        }

        @Override
        public long position() throws IOException {
            return file.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            file.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return file.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            file.truncate(size);
            return this;
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return file.transferTo(position, count, target);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            if (mode != MapMode.READ_ONLY) {
                throw new UnsupportedOperationException("not counted against the disk's room");
            }
            return file.map(mode, position, size);
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return file.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return file.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            file.close();
        }
    }
}
