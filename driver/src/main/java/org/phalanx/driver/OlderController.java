package org.phalanx.driver;

import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.phalanx.protocol.Protocol;

/**
 * A controller of an older release refuses this driver's protocol version with {@code 08004},
 * naming the version it speaks (docs/protocol.md, versioning); the driver then logs in again in
 * that version if it still speaks it, and goes without what came later (an OUTCOME answered with
 * keys or a batch's counts).
 */
final class OlderController {
    /** As every controller since version 3 words the refusal. */
    private static final Pattern SPEAKS = Pattern.compile("protocol version \\d+ is not supported \\(this controller"
            + " speaks version (\\d+)");

    private OlderController() {
    }

    /** The older version to log in with after {@code refusal} of {@code tried}; 0 when there is none. */
    static short version(SQLException refusal, short tried) {
        if (!"08004".equals(refusal.getSQLState()) || refusal.getMessage() == null) {
            return 0;
        }
        Matcher m = SPEAKS.matcher(refusal.getMessage());
        if (!m.find()) {
            return 0;
        }
        int spoken;
        try {
            spoken = Integer.parseInt(m.group(1));
        } catch (NumberFormatException e) {
            return 0;
        }
        return spoken >= Protocol.OLDEST_VERSION && spoken < tried ? (short) spoken : 0;
    }
}
