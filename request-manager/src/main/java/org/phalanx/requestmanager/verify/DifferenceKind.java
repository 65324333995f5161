package org.phalanx.requestmanager.verify;

/** How one replica's row differs from the majority's (or, without a majority, from the first replica's). */
public enum DifferenceKind {
    /** Both hold the row under that key, with different values. */
    CHANGED,
    /** The replica lacks the row. */
    MISSING,
    /** The replica holds a row the others lack. */
    EXTRA
}
