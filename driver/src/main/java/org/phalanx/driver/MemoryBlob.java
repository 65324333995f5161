package org.phalanx.driver;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.sql.Blob;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * A Blob held in memory. Values travel whole in the protocol, so there is no locator to keep
 * on the server; positions are 1-based as JDBC wants.
 */
final class MemoryBlob implements Blob {
    private byte[] data;
    private int length;
    private boolean freed;

    MemoryBlob(byte[] data) {
        this.data = data;
        this.length = data.length;
    }

    byte[] toBytes() throws SQLException {
        check();
        return Arrays.copyOf(data, length);
    }

    private void check() throws SQLException {
        if (freed) {
            throw SqlExceptions.create("blob has been freed", SqlExceptions.OBJECT_CLOSED);
        }
    }

    private static SQLException badPosition(long pos) {
        return SqlExceptions.create("invalid blob position " + pos, SqlExceptions.INVALID_ARGUMENT);
    }

    @Override
    public long length() throws SQLException {
        check();
        return length;
    }

    @Override
    public byte[] getBytes(long pos, int len) throws SQLException {
        check();
        if (pos < 1 || pos > length + 1L || len < 0) {
            throw badPosition(pos);
        }
        int from = (int) pos - 1;
        return Arrays.copyOfRange(data, from, from + Math.min(len, length - from));
    }

    @Override
    public InputStream getBinaryStream() throws SQLException {
        check();
        return new ByteArrayInputStream(data, 0, length);
    }

    @Override
    public InputStream getBinaryStream(long pos, long len) throws SQLException {
        check();
        if (pos < 1 || len < 0 || pos - 1 + len > length) {
            throw badPosition(pos);
        }
        return new ByteArrayInputStream(data, (int) pos - 1, (int) len);
    }

    @Override
    public long position(byte[] pattern, long start) throws SQLException {
        check();
        if (start < 1) {
            throw badPosition(start);
        }
        outer:
        for (long i = start - 1; i + pattern.length <= length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (data[(int) i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i + 1;
        }
        return -1;
    }

    @Override
    public long position(Blob pattern, long start) throws SQLException {
        return position(pattern.getBytes(1, (int) pattern.length()), start);
    }

    @Override
    public int setBytes(long pos, byte[] bytes) throws SQLException {
        return setBytes(pos, bytes, 0, bytes.length);
    }

    @Override
    public int setBytes(long pos, byte[] bytes, int offset, int len) throws SQLException {
        check();
        if (pos < 1 || pos > length + 1L || offset < 0 || len < 0 || offset + len > bytes.length) {
            throw badPosition(pos);
        }
        int at = (int) pos - 1;
        ensure(at + len);
        System.arraycopy(bytes, offset, data, at, len);
        length = Math.max(length, at + len);
        return len;
    }

    private void ensure(int capacity) {
        if (capacity > data.length) {
            data = Arrays.copyOf(data, Math.max(capacity, data.length * 2));
        }
    }

    @Override
    public OutputStream setBinaryStream(long pos) throws SQLException {
        check();
        if (pos < 1 || pos > length + 1L) {
            throw badPosition(pos);
        }
        return new OutputStream() {
            private long next = pos;

            @Override
            public void write(int b) throws java.io.IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws java.io.IOException {
                try {
                    next += setBytes(next, b, off, len);
                } catch (SQLException e) {
                    throw new java.io.IOException(e.getMessage(), e);
                }
            }
        };
    }

    @Override
    public void truncate(long len) throws SQLException {
        check();
        if (len < 0 || len > length) {
            throw SqlExceptions.create("invalid blob length " + len, SqlExceptions.INVALID_ARGUMENT);
        }
        length = (int) len;
    }

    @Override
    public void free() {
        freed = true;
        data = new byte[0];
        length = 0;
    }
}
