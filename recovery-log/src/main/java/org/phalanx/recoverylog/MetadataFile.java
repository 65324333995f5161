package org.phalanx.recoverylog;

import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;

/**
 * The file log's sidecar: checkpoints, backend states and how far the log was purged, as a small
 * UTF-8 text file replaced atomically (write a temporary file, fsync it, rename it over the old
 * one, fsync the directory) so a crash leaves either the old or the new version.
 *
 * <pre>
 * phalanx-recovery-log-metadata 1
 * purged-through 1234
 * checkpoint &lt;url-encoded name&gt; &lt;position&gt;
 * state &lt;url-encoded key&gt; &lt;url-encoded value&gt;
 * crc32 &lt;hex of the CRC32 of all lines above, including their newlines&gt;
 * </pre>
 */
final class MetadataFile {
    static final String NAME = "metadata";
    private static final String TEMP = "metadata.tmp";
    private static final String HEADER = "phalanx-recovery-log-metadata 1";

    /** The sidecar's content; mutable, guarded by the log. */
    static final class Content {
        long purgedThrough;
        final Map<String, Long> checkpoints = new TreeMap<>();
        final Map<String, String> states = new TreeMap<>();
    }

    private MetadataFile() {
    }

    static Content read(Path dir) throws IOException {
        Files.deleteIfExists(dir.resolve(TEMP)); // a write that never reached its rename
        Path file = dir.resolve(NAME);
        Content content = new Content();
        if (!Files.exists(file)) {
            return content;
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int crcLine = text.lastIndexOf("crc32 ");
        if (!text.startsWith(HEADER + "\n") || crcLine < 0 || !text.endsWith("\n")) {
            throw new LogCorruptedException(file, 0, "not a recovery log metadata file, or incomplete");
        }
        String body = text.substring(0, crcLine);
        long expected;
        try {
            expected = Long.parseLong(text.substring(crcLine + 6, text.length() - 1).trim(), 16);
        } catch (NumberFormatException e) {
            throw new LogCorruptedException(file, crcLine, "unreadable checksum line");
        }
        if (crc(body) != expected) {
            throw new LogCorruptedException(file, 0, "checksum mismatch");
        }
        int lineOffset = 0;
        for (String line : body.split("\n")) {
            String[] f = line.split(" ");
            try {
                switch (f[0]) {
                    case "phalanx-recovery-log-metadata" -> { }
                    case "purged-through" -> content.purgedThrough = Long.parseLong(f[1]);
                    case "checkpoint" -> content.checkpoints.put(decode(f[1]), Long.parseLong(f[2]));
                    case "state" -> content.states.put(decode(f[1]), decode(f[2]));
                    default -> throw new IllegalArgumentException("unknown line");
                }
            } catch (RuntimeException e) {
                throw new LogCorruptedException(file, lineOffset, "bad line '" + line + "'");
            }
            lineOffset += line.length() + 1;
        }
        return content;
    }

    static void write(Path dir, Content content) throws IOException {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        b.append("purged-through ").append(content.purgedThrough).append('\n');
        content.checkpoints.forEach((name, position) ->
                b.append("checkpoint ").append(encode(name)).append(' ').append(position).append('\n'));
        content.states.forEach((key, value) ->
                b.append("state ").append(encode(key)).append(' ').append(encode(value)).append('\n'));
        long crc = crc(b.toString());
        b.append("crc32 ").append(Long.toHexString(crc)).append('\n');
        Path temp = dir.resolve(TEMP);
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer bytes = ByteBuffer.wrap(b.toString().getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        }
        Files.move(temp, dir.resolve(NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        syncDirectory(dir);
    }

    /** Makes a rename, creation or deletion in {@code dir} durable. */
    static void syncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    private static long crc(String text) {
        CRC32 crc = new CRC32();
        crc.update(text.getBytes(StandardCharsets.UTF_8));
        return crc.getValue();
    }

    // URL encoding keeps every name on one space-free line; "+" for space is decoded back.
    private static String encode(String s) {
        return s.isEmpty() ? "%" : URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String decode(String s) {
        return s.equals("%") ? "" : URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
