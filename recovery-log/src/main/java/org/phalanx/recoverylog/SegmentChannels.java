package org.phalanx.recoverylog;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * Opens the channels a {@link FileRecoveryLog} writes its segment files through:
 * {@link FileChannel#open(Path, OpenOption...)} in service. A test hands in channels that fail as
 * a full or failing disk does (a short write, then an {@link IOException}), so that the log's own
 * failure handling runs as it would on that disk.
 */
@FunctionalInterface
public interface SegmentChannels {
    SegmentChannels FILES = FileChannel::open;

    FileChannel open(Path file, OpenOption... options) throws IOException;
}
