package org.phalanx.requestmanager.verify;

import java.util.List;

/**
 * One row that differs between replicas.
 *
 * @param key      the row's primary key, {@code column=value} pairs in key order
 * @param kind     how the named replicas' row differs
 * @param backends with {@code decided}, the one replica in the minority; otherwise every replica
 *                 that holds something different (two replicas: both), the kind then saying what
 *                 the others hold compared with the first of them
 * @param decided  whether a majority of the replicas agreed on the row
 */
public record RowDifference(String key, DifferenceKind kind, List<String> backends, boolean decided) {
    public RowDifference {
        backends = List.copyOf(backends);
    }
}
