package org.phalanx.requestmanager.recovery;

import java.util.ArrayList;
import java.util.List;
import org.phalanx.recoverylog.LogNull;
import org.phalanx.requestmanager.api.TypedNull;

/** Parameter values between the request manager's and the recovery log's NULL markers. */
public final class LoggedValues {
    private LoggedValues() {
    }

    public static List<Object> toLog(List<Object> params) {
        List<Object> out = new ArrayList<>(params.size());
        for (Object p : params) {
            out.add(p instanceof TypedNull n ? new LogNull(n.sqlType()) : p);
        }
        return out;
    }

    public static List<Object> fromLog(List<Object> params) {
        List<Object> out = new ArrayList<>(params.size());
        for (Object p : params) {
            out.add(p instanceof LogNull n ? new TypedNull(n.sqlType()) : p);
        }
        return out;
    }
}
