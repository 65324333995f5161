package org.phalanx.protocol;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;

/**
 * Coverage-guided fuzzing of what a controller decodes from strangers: any bytes on the wire are
 * either a frame whose message decodes, or a {@link ProtocolException} (a stream cut inside a frame
 * header: {@link EOFException}) — never another exception, a hang or an allocation the frame limit
 * does not bound. {@code mvn verify} fuzzes for a bounded time (JAZZER_FUZZ, see the pom); a plain
 * run replays the committed corpus.
 */
class ProtocolFuzzTest {
    private static final int MAX_FRAME = 1 << 20;

    @FuzzTest(maxDuration = "10s")
    void anyBytesDecodeOrFailCleanly(byte[] bytes) throws Exception {
        try {
            byte[] frame = FrameIO.read(new DataInputStream(new ByteArrayInputStream(bytes)), MAX_FRAME);
            if (frame == null) {
                return;
            }
            MessageReader r = new MessageReader(frame);
            switch (r.type()) {
                case MessageType.HELLO -> Hello.readBody(r);
                case MessageType.EXECUTE -> Execute.readBody(r);
                case MessageType.BATCH -> Batch.readBody(r);
                case MessageType.METADATA -> MetadataRequest.readBody(r);
                case MessageType.ERROR -> ErrorReply.readBody(r);
                case MessageType.HELLO_OK -> HelloOk.readBody(r);
                case MessageType.RESULT_SET -> ResultSetReply.readBody(r);
                case MessageType.UPDATE_COUNT -> UpdateCount.readBody(r);
                case MessageType.BATCH_RESULT -> BatchResult.readBody(r);
                default -> {
                    return;
                }
            }
            r.end();
        } catch (ProtocolException | EOFException expected) {
            // refused cleanly
        }
    }
}
