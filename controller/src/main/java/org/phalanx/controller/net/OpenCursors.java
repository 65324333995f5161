package org.phalanx.controller.net;

import org.phalanx.controller.result.ResultCursor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

/** The results of one connection still being fetched, by the cursor id the client knows them by. */
final class OpenCursors {
    private final Map<Integer, ResultCursor> cursors = new HashMap<>();
    private int lastId;

    /** @return a non-zero id (0 on the wire means "no open cursor") */
    int register(ResultCursor cursor) {
        do {
            lastId++;
        } while (lastId == 0 || cursors.containsKey(lastId));
        cursors.put(lastId, cursor);
        return lastId;
    }

    ResultCursor get(int id) {
        return cursors.get(id);
    }

    int size() {
        return cursors.size();
    }

    /** Closing an unknown id is not an error: the cursor may have ended with its last batch. */
    void close(int id) {
        ResultCursor cursor = cursors.remove(id);
        if (cursor != null) {
            cursor.close();
        }
    }

    void closeAll() {
        for (ResultCursor cursor : new ArrayList<>(cursors.values())) {
            cursor.close();
        }
        cursors.clear();
    }
}
