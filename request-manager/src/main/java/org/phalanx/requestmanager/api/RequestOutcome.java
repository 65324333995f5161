package org.phalanx.requestmanager.api;

/** What a driver that lost its controller is told about its last request ({@link RequestId}). */
public sealed interface RequestOutcome {

    /**
     * The request's one unit is in the log: applied; {@code count} its update count, or -1 when not
     * known; {@code generatedKeys} the keys it generated when it asked for them, or null (not asked
     * for, or not remembered: more than {@code RememberedKeys.MAX_ROWS} rows, or of a type the log
     * cannot hold).
     */
    record Applied(long count, Result.Cached generatedKeys) implements RequestOutcome {
        public Applied(long count) {
            this(count, null);
        }

        /** As the controller logs the answer: the keys by their number of rows. */
        @Override
        public String toString() {
            return "Applied[count=" + count + (generatedKeys == null ? "" : ", keys=" + generatedKeys.rows().size()
                    + " rows") + "]";
        }
    }

    /**
     * A batch: each element the log holds, in order, with its update count
     * ({@link java.sql.Statement#EXECUTE_FAILED} for one that failed on every backend, a negative
     * count when not known). Run element by element (one unit an element), elements after the last
     * one counted were never applied, nor ever will be; run as one transaction ({@code whole}), every
     * element is there. {@code generatedKeys} as for {@link Applied}, of all the elements in order.
     */
    record BatchApplied(long[] counts, Result.Cached generatedKeys, boolean whole) implements RequestOutcome {
        public BatchApplied(long[] counts, Result.Cached generatedKeys) {
            this(counts, generatedKeys, false);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof BatchApplied b && java.util.Arrays.equals(counts, b.counts)
                    && java.util.Objects.equals(generatedKeys, b.generatedKeys) && whole == b.whole;
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(counts);
        }

        @Override
        public String toString() {
            return "BatchApplied" + (whole ? "[whole]" : "") + java.util.Arrays.toString(counts)
                    + (generatedKeys == null ? "" : "[keys=" + generatedKeys.rows().size() + " rows]");
        }
    }

    /** Nothing of the request is in the log, nor ever will be: sending it again is safe. */
    record NotApplied() implements RequestOutcome {
    }

    /** No safe answer: {@code why}. */
    record Unknown(String why) implements RequestOutcome {
    }
}
