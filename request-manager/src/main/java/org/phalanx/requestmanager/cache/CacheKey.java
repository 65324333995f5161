package org.phalanx.requestmanager.cache;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.phalanx.requestmanager.api.TypedNull;

/** A read as the cache tells reads apart: SQL text, parameter values, row limit. */
record CacheKey(String sql, List<Object> params, int maxRows) {

    static CacheKey of(String sql, List<Object> params, int maxRows) {
        List<Object> comparable = new ArrayList<>(params.size());
        for (Object p : params) {
            // arrays compare by identity; every NULL is the same NULL for a read
            comparable.add(p instanceof byte[] b ? "0x" + HexFormat.of().formatHex(b) : p instanceof TypedNull ? null : p);
        }
        return new CacheKey(sql, comparable, maxRows);
    }
}
