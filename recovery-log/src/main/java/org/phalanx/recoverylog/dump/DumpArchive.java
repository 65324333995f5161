package org.phalanx.recoverylog.dump;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.phalanx.engine.Engine;

/**
 * The container of every dump: a zip archive with the backuper's entries and, last,
 * {@code dump.properties} — {@code key=value} lines (in values, %, CR and LF are %25, %0D, %0A) naming the format,
 * checkpoint, source engine, tables with row counts, and the size and CRC32 of every other entry.
 * A truncated file has no zip directory and fails to open; a damaged entry fails
 * {@link Reader#verify}.
 */
final class DumpArchive {
    static final String INFO = "dump.properties";
    private static final String MAGIC_KEY = "phalanx.dump";

    private DumpArchive() {
    }

    /** Values stay readable: only '%', CR and LF are written as %25, %0D, %0A. */
    static String escape(String value) {
        return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
    }

    static String unescape(String value) {
        return value.replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%");
    }

    /** Writes a dump into a temporary file and moves it into place on {@link #commit}. */
    static final class Writer implements AutoCloseable {
        private final Path target;
        private final Path temp;
        private final FileOutputStream file;
        private final BufferedOutputStream buffered;
        private final ZipOutputStream zip;
        private final Map<String, String> entries = new LinkedHashMap<>();
        private boolean committed;

        Writer(Path dumpFile) throws DumpException {
            this.target = dumpFile.toAbsolutePath();
            if (Files.exists(target)) {
                throw new DumpException("dump file " + target + " already exists; choose another name or delete it");
            }
            this.temp = target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
            try {
                Files.createDirectories(target.getParent());
                this.file = new FileOutputStream(temp.toFile());
            } catch (IOException e) {
                throw new DumpException("cannot create dump file next to " + target + ": " + e, e);
            }
            this.buffered = new BufferedOutputStream(file, 1 << 20); // the deflater writes in 512-byte pieces
            this.zip = new ZipOutputStream(buffered, StandardCharsets.UTF_8);
        }

        /**
         * Starts an entry; write it fully and close the returned stream before starting another.
         *
         * @param compress false for content that is compressed already
         */
        OutputStream entry(String name, boolean compress) throws IOException {
            ZipEntry entry = new ZipEntry(name);
            entry.setMethod(ZipEntry.DEFLATED);
            zip.setLevel(compress ? Deflater.BEST_SPEED : Deflater.NO_COMPRESSION); // speed over ratio: XML deflates well anyway
            zip.putNextEntry(entry);
            CRC32 crc = new CRC32();
            return new FilterOutputStream(zip) {
                private long size;
                private boolean closed;

                @Override
                public void write(int b) throws IOException {
                    zip.write(b);
                    crc.update(b);
                    size++;
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    zip.write(b, off, len);
                    crc.update(b, off, len);
                    size += len;
                }

                @Override
                public void close() throws IOException {
                    if (!closed) {
                        closed = true;
                        zip.closeEntry();
                        entries.put("entry." + name + ".size", Long.toString(size));
                        entries.put("entry." + name + ".crc32", Long.toHexString(crc.getValue()));
                    }
                }
            };
        }

        /** Writes the info entry, syncs the file and renames it to the dump file; returns its size. */
        long commit(Map<String, String> info) throws IOException {
            Map<String, String> all = new LinkedHashMap<>();
            all.put(MAGIC_KEY, "1");
            all.putAll(info);
            all.putAll(entries);
            StringBuilder text = new StringBuilder("# Phalanx dump: see recovery-log/README.md\n");
            all.forEach((k, v) -> text.append(k).append('=').append(escape(v)).append('\n'));
            zip.setLevel(Deflater.DEFAULT_COMPRESSION);
            zip.putNextEntry(new ZipEntry(INFO));
            zip.write(text.toString().getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
            zip.finish();
            buffered.flush();
            file.getChannel().force(true);
            zip.close();
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException e) {
                throw new IOException("dump file " + target + " appeared while the dump was being written", e);
            }
            try (FileChannel dir = FileChannel.open(target.getParent(), StandardOpenOption.READ)) {
                dir.force(true);
            }
            committed = true;
            return Files.size(target);
        }

        /** Without a commit: deletes the temporary file, so a failed dump leaves nothing. */
        @Override
        public void close() {
            if (!committed) {
                try {
                    zip.close();
                } catch (IOException | RuntimeException ignored) {
                    // being discarded
                }
                try {
                    Files.deleteIfExists(temp);
                } catch (IOException ignored) {
                    // nothing more we can do
                }
            }
        }
    }

    /** Opens a dump for reading. */
    static final class Reader implements AutoCloseable {
        private final Path path;
        private final ZipFile zip;
        private final Map<String, String> info;

        Reader(Path path) throws DumpException {
            this.path = path;
            if (!Files.isRegularFile(path)) {
                throw new DumpException("dump file " + path + " does not exist");
            }
            try {
                this.zip = new ZipFile(path.toFile(), StandardCharsets.UTF_8);
            } catch (ZipException e) {
                throw new DumpException("dump file " + path + " is truncated or not a dump (" + e.getMessage() + ")", e);
            } catch (IOException e) {
                throw new DumpException("cannot open dump file " + path + ": " + e, e);
            }
            try {
                this.info = readInfo();
            } catch (DumpException e) {
                closeQuietly();
                throw e;
            }
        }

        private Map<String, String> readInfo() throws DumpException {
            ZipEntry entry = zip.getEntry(INFO);
            if (entry == null) {
                throw new DumpException("dump file " + path + " has no " + INFO + ": not a Phalanx dump");
            }
            Map<String, String> map = new LinkedHashMap<>();
            try (BufferedReader in = new BufferedReader(new InputStreamReader(zip.getInputStream(entry),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.startsWith("#") || line.isEmpty()) {
                        continue;
                    }
                    int eq = line.indexOf('=');
                    if (eq < 0) {
                        throw new DumpException("dump file " + path + ": bad line in " + INFO + ": " + line);
                    }
                    map.put(line.substring(0, eq), unescape(line.substring(eq + 1)));
                }
            } catch (IOException | IllegalArgumentException e) {
                throw new DumpException("dump file " + path + ": " + INFO + " is damaged (" + e.getMessage() + ")", e);
            }
            if (!"1".equals(map.get(MAGIC_KEY))) {
                throw new DumpException("dump file " + path + " is not a Phalanx dump of a version this build reads");
            }
            return map;
        }

        Map<String, String> info() {
            return info;
        }

        String require(String key) throws DumpException {
            String value = info.get(key);
            if (value == null) {
                throw new DumpException("dump file " + path + ": " + INFO + " lacks '" + key + "'");
            }
            return value;
        }

        DumpInfo dumpInfo() throws DumpException {
            try {
                int n = Integer.parseInt(require("tables"));
                List<DumpInfo.TableRows> tables = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    tables.add(new DumpInfo.TableRows(require("table." + i + ".name"),
                            Long.parseLong(require("table." + i + ".rows"))));
                }
                return new DumpInfo(require("format"), require("checkpoint.name"),
                        Long.parseLong(require("checkpoint.position")), Engine.valueOf(require("source.engine")),
                        tables, Files.size(path), Instant.parse(require("created")));
            } catch (NumberFormatException | DateTimeParseException e) {
                throw new DumpException("dump file " + path + ": " + INFO + " holds a bad value (" + e.getMessage() + ")", e);
            } catch (IllegalArgumentException e) {
                throw new DumpException("dump file " + path + ": unknown engine " + info.get("source.engine"), e);
            } catch (IOException e) {
                throw new DumpException("cannot read dump file " + path + ": " + e, e);
            }
        }

        /** Reads every entry to the end and checks its size and CRC against the info. */
        void verify(Progress progress) throws DumpException {
            long total = 0;
            for (Map.Entry<String, String> e : info.entrySet()) {
                if (e.getKey().startsWith("entry.") && e.getKey().endsWith(".size")) {
                    total += Long.parseLong(e.getValue());
                }
            }
            long done = 0;
            byte[] buffer = new byte[1 << 16];
            for (Map.Entry<String, String> e : info.entrySet()) {
                String key = e.getKey();
                if (!key.startsWith("entry.") || !key.endsWith(".size")) {
                    continue;
                }
                String name = key.substring("entry.".length(), key.length() - ".size".length());
                long expectedSize = Long.parseLong(e.getValue());
                long expectedCrc = Long.parseLong(require("entry." + name + ".crc32"), 16);
                ZipEntry entry = zip.getEntry(name);
                if (entry == null) {
                    throw new DumpException("dump file " + path + " lacks its entry " + name);
                }
                CRC32 crc = new CRC32();
                long size = 0;
                try (InputStream in = zip.getInputStream(entry)) {
                    int n;
                    while ((n = in.read(buffer)) > 0) {
                        crc.update(buffer, 0, n);
                        size += n;
                        done += n;
                        if (size % (64L << 20) < n) {
                            progress.report(done, total, "bytes verified");
                        }
                    }
                } catch (IOException ex) {
                    throw new DumpException("dump file " + path + " is damaged: entry " + name + " cannot be read ("
                            + ex.getMessage() + ")", ex);
                }
                if (size != expectedSize || crc.getValue() != expectedCrc) {
                    throw new DumpException("dump file " + path + " is damaged: entry " + name + " has " + size
                            + " bytes with CRC " + Long.toHexString(crc.getValue()) + ", expected " + expectedSize
                            + " bytes with CRC " + Long.toHexString(expectedCrc));
                }
            }
            progress.report(total, total, "bytes verified");
        }

        InputStream entry(String name) throws DumpException {
            ZipEntry entry = zip.getEntry(name);
            if (entry == null) {
                throw new DumpException("dump file " + path + " lacks its entry " + name);
            }
            try {
                return zip.getInputStream(entry);
            } catch (IOException e) {
                throw new DumpException("cannot read entry " + name + " of dump file " + path + ": " + e, e);
            }
        }

        Path path() {
            return path;
        }

        private void closeQuietly() {
            try {
                zip.close();
            } catch (IOException ignored) {
                // read only
            }
        }

        @Override
        public void close() {
            closeQuietly();
        }
    }
}
