package org.phalanx.requestmanager.api;

import java.util.ArrayList;
import java.util.List;

/**
 * What a prepared statement's batch did: each element's update count, and the generated keys of
 * all its elements, in order, when the batch asked for them (else null).
 */
public record BatchOutcome(long[] counts, Result.Cached generatedKeys) {

    /** Collects the keys of a batch run element by element. */
    public static final class Keys {
        private Result.Cached first;
        private final List<Object[]> rows = new ArrayList<>();

        public void add(Result.Cached keys) {
            if (keys == null) {
                return;
            }
            if (first == null) {
                first = keys;
            }
            rows.addAll(keys.rows());
        }

        /** The keys so far; an empty result when no element reported any. */
        public Result.Cached result() {
            return first == null ? null : new Result.Cached(first.metaData(), rows);
        }
    }
}
