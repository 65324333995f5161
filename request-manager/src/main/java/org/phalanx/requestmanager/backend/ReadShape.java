package org.phalanx.requestmanager.backend;

import org.phalanx.engine.Engine;
import org.phalanx.requestmanager.api.Request;

/**
 * How a read is run on one backend so that the controller holds at most a batch of its rows,
 * whatever the result's size and whether or not its client asked for a fetch size.
 *
 * <ul>
 *   <li>MariaDB streams a result when given a fetch size, at no cost: always give one (at most
 *       {@link #ROWS_HELD}, whatever the client asked).</li>
 *   <li>PostgreSQL streams only through a cursor, which outside a transaction needs one (a round
 *       trip more, twice a point read's time): a read whose client asked no fetch size is first
 *       run for at most {@link #ROWS_HELD} + 1 rows into a scrollable result that can count them
 *       ({@link #probe}); one that returns more is run again as a cursor, and so at once the next
 *       time its text is seen.</li>
 *   <li>SQLite steps through its results anyway: as asked.</li>
 * </ul>
 *
 * @param scrollable the statement's results can be counted and rewound (PostgreSQL keeps them in memory)
 * @param maxRows    the statement's row limit (0: none)
 * @param fetchSize  rows fetched at a time (0: the driver's way, all at once for PostgreSQL and MariaDB)
 * @param probe      a result of more than {@link #ROWS_HELD} rows must be read again as {@link #streamed}
 */
public record ReadShape(boolean scrollable, int maxRows, int fetchSize, boolean probe) {
    /** Rows of one read a backend's driver holds in memory at most: the largest fetch size a backend gets. */
    public static final int ROWS_HELD = 1000;

    /**
     * @param largeBefore the read's text returned more than {@link #ROWS_HELD} rows on this backend's engine before
     */
    public static ReadShape of(Engine engine, Request r, boolean largeBefore) {
        switch (engine) {
            case MARIADB:
                return streamed(r);
            case POSTGRESQL:
                if (r.fetchSize() > 0 || largeBefore) {
                    return streamed(r);
                }
                return r.maxRows() > 0 && r.maxRows() <= ROWS_HELD ? asAsked(r)
                        : new ReadShape(true, ROWS_HELD + 1, 0, true);
            default:
                return asAsked(r);
        }
    }

    /** The request's own limit and fetch size. */
    public static ReadShape asAsked(Request r) {
        return new ReadShape(false, r.maxRows(), r.fetchSize(), false);
    }

    /**
     * In batches of the request's fetch size, at most {@link #ROWS_HELD}: a client asking for larger
     * batches still gets them (the controller reads on through the batches), but cannot make the
     * controller hold more.
     */
    public static ReadShape streamed(Request r) {
        return new ReadShape(false, r.maxRows(), r.fetchSize() > 0 ? Math.min(r.fetchSize(), ROWS_HELD) : ROWS_HELD,
                false);
    }

    /** PostgreSQL reads in batches only through a cursor, which needs a transaction. */
    public boolean needsTransaction(Engine engine) {
        return engine == Engine.POSTGRESQL && fetchSize > 0;
    }
}
