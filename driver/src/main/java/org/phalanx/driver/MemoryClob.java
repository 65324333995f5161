package org.phalanx.driver;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.Clob;
import java.sql.NClob;
import java.sql.SQLException;

/** A Clob (and NClob: Java strings are Unicode either way) held in memory; positions are 1-based. */
final class MemoryClob implements NClob {
    private StringBuilder text;
    private boolean freed;

    MemoryClob(String text) {
        this.text = new StringBuilder(text);
    }

    String asString() throws SQLException {
        check();
        return text.toString();
    }

    private void check() throws SQLException {
        if (freed) {
            throw SqlExceptions.create("clob has been freed", SqlExceptions.OBJECT_CLOSED);
        }
    }

    private static SQLException badPosition(long pos) {
        return SqlExceptions.create("invalid clob position " + pos, SqlExceptions.INVALID_ARGUMENT);
    }

    @Override
    public long length() throws SQLException {
        check();
        return text.length();
    }

    @Override
    public String getSubString(long pos, int length) throws SQLException {
        check();
        if (pos < 1 || pos > text.length() + 1L || length < 0) {
            throw badPosition(pos);
        }
        int from = (int) pos - 1;
        return text.substring(from, from + Math.min(length, text.length() - from));
    }

    @Override
    public Reader getCharacterStream() throws SQLException {
        return new StringReader(asString());
    }

    @Override
    public Reader getCharacterStream(long pos, long length) throws SQLException {
        check();
        if (pos < 1 || length < 0 || pos - 1 + length > text.length()) {
            throw badPosition(pos);
        }
        return new StringReader(text.substring((int) pos - 1, (int) (pos - 1 + length)));
    }

    @Override
    public InputStream getAsciiStream() throws SQLException {
        return new ByteArrayInputStream(asString().getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public long position(String search, long start) throws SQLException {
        check();
        if (start < 1) {
            throw badPosition(start);
        }
        int i = text.indexOf(search, (int) Math.min(start - 1, Integer.MAX_VALUE));
        return i < 0 ? -1 : i + 1;
    }

    @Override
    public long position(Clob search, long start) throws SQLException {
        return position(search.getSubString(1, (int) search.length()), start);
    }

    @Override
    public int setString(long pos, String str) throws SQLException {
        return setString(pos, str, 0, str.length());
    }

    @Override
    public int setString(long pos, String str, int offset, int len) throws SQLException {
        check();
        if (pos < 1 || pos > text.length() + 1L || offset < 0 || len < 0 || offset + len > str.length()) {
            throw badPosition(pos);
        }
        int at = (int) pos - 1;
        int end = Math.min(at + len, text.length());
        text.replace(at, end, str.substring(offset, offset + len));
        return len;
    }

    @Override
    public OutputStream setAsciiStream(long pos) throws SQLException {
        Writer w = setCharacterStream(pos);
        return new OutputStream() {
            @Override
            public void write(int b) throws java.io.IOException {
                w.write(b & 0x7F);
            }
        };
    }

    @Override
    public Writer setCharacterStream(long pos) throws SQLException {
        check();
        if (pos < 1 || pos > text.length() + 1L) {
            throw badPosition(pos);
        }
        return new Writer() {
            private long next = pos;

            @Override
            public void write(char[] buf, int off, int len) throws java.io.IOException {
                try {
                    next += setString(next, new String(buf, off, len));
                } catch (SQLException e) {
                    throw new java.io.IOException(e.getMessage(), e);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public void truncate(long len) throws SQLException {
        check();
        if (len < 0 || len > text.length()) {
            throw SqlExceptions.create("invalid clob length " + len, SqlExceptions.INVALID_ARGUMENT);
        }
        text.setLength((int) len);
    }

    @Override
    public void free() {
        freed = true;
        text = new StringBuilder();
    }
}
