package org.phalanx.requestmanager.verify;

import java.util.Map;

/**
 * A chunk whose checksums differ between replicas.
 *
 * @param range     the chunk's key range ({@code id > 1000 AND id <= 2000}), or "whole table"
 * @param rowCounts rows each replica holds in that range, by backend name
 */
public record RangeDifference(String range, Map<String, Long> rowCounts) {
    public RangeDifference {
        rowCounts = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(rowCounts));
    }
}
