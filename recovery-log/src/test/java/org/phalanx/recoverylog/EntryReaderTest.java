package org.phalanx.recoverylog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one reader both logs decode their stored entries with. */
class EntryReaderTest {
    @TempDir
    Path dir;

    private static EntryCodec.Fields stored(long position, int letter, String sql) {
        return new EntryCodec.Fields(position, 7, letter, "u", sql, List.of(1L), Set.of("db1"), null);
    }

    @Test
    void storedFieldsBecomeTheEntry() throws IOException {
        assertEquals(LogEntry.write(3, 7, "u", "UPDATE t SET x = 1", List.of(1L), Set.of("db1")),
                EntryReader.entry(stored(3, 'W', "UPDATE t SET x = 1")));
    }

    @Test
    void anUnknownKindOrAnInvalidEntryIsRefused() {
        IOException kind = assertThrows(IOException.class, () -> EntryReader.entry(stored(3, 'X', "x")));
        assertTrue(kind.getMessage().contains("unknown entry kind"), kind.getMessage());
        IOException noSql = assertThrows(IOException.class, () -> EntryReader.entry(stored(3, 'S', null)));
        assertTrue(noSql.getMessage().startsWith("invalid entry: "), noSql.getMessage());
        assertThrows(IOException.class, () -> EntryReader.entry(stored(0, 'C', null)));
    }

    /** A storage handing over prepared stored entries, recording what the reader asks of it. */
    private static final class Listed implements EntryReader.Source {
        final Deque<StoredEntry> entries;
        boolean closed;

        Listed(StoredEntry... entries) {
            this.entries = new ArrayDeque<>(List.of(entries));
        }

        @Override
        public StoredEntry next() {
            return entries.poll();
        }

        @Override
        public RecoveryLogException damaged(StoredEntry entry, IOException reason) {
            return new RecoveryLogException("damaged at " + entry.position() + ": " + reason.getMessage());
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void theReadEndsClosedAfterTheLastEntry() {
        Listed source = new Listed(stored(1, 'C', null), stored(2, 'R', null));
        try (EntryReader reader = new EntryReader(source)) {
            assertEquals(1, reader.next().position());
            assertEquals(2, reader.next().position());
            assertFalse(reader.hasNext());
            assertTrue(source.closed);
        }
    }

    @Test
    void aDamagedEntryIsTheStoragesErrorAndClosesTheRead() {
        Listed source = new Listed(stored(1, 'C', null), stored(2, '?', null), stored(3, 'C', null));
        try (EntryReader reader = new EntryReader(source)) {
            reader.next();
            RecoveryLogException e = assertThrows(RecoveryLogException.class, reader::hasNext);
            assertTrue(e.getMessage().startsWith("damaged at 2: unknown entry kind"), e.getMessage());
            assertTrue(source.closed);
            assertFalse(reader.hasNext());
        }
    }

    @Test
    void aDamagedRowOfTheJdbcLogNamesItsPosition() throws SQLException {
        String url = "jdbc:sqlite:" + dir.resolve("log.db");
        try (RecoveryLog log = new JdbcRecoveryLog(url, null, null, "rlog_")) {
            log.append(LogEntry.commit(1, 5, "u", Set.of("a")));
            log.append(LogEntry.commit(2, 6, "u", Set.of("a")));
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE rlog_entries SET kind = 'Q' WHERE log_position = 2");
            }
            RecoveryLogException e = assertThrows(RecoveryLogException.class, () -> RecoveryLogContract.readAll(log, 0));
            assertTrue(e.getMessage().contains("the entry at position 2 is damaged: unknown entry kind"), e.getMessage());
        }
    }

    @Test
    void aRequestIdTravelsWithTheEntryAndEntriesWithoutOneReadAsBefore() throws IOException {
        LogEntry plain = LogEntry.statement(4, "u", "UPDATE t SET x = 1", List.of(1L), Set.of("db1"));
        LogEntry tagged = plain.withRequestId("c0ffee:12");
        assertEquals("c0ffee:12", EntryBytes.decode(EntryBytes.encode(tagged)).requestId());
        assertEquals(null, EntryBytes.decode(EntryBytes.encode(plain)).requestId());
        // the id is not part of the entry's identity: a log that does not keep it reads the entry back equal
        assertEquals(plain, tagged);
        // an entry written before request ids existed ends where the id would start
        byte[] old = EntryBytes.encode(plain);
        assertEquals(plain, EntryBytes.decode(old));
    }
}
