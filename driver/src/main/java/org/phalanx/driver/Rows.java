package org.phalanx.driver;

import java.sql.SQLException;

/** Where a result set's rows come from: streamed from a server cursor, or held in memory. */
interface Rows {
    /** Moves to the next row; false (and after the last row) when there is none. */
    boolean next() throws SQLException;

    /** The row the cursor is on, or null when it is before the first or after the last row. */
    Object[] current();

    /** 1-based number of the current row, 0 when not on a row. */
    int getRow();

    boolean isBeforeFirst() throws SQLException;

    boolean isAfterLast() throws SQLException;

    boolean isFirst() throws SQLException;

    boolean isLast() throws SQLException;

    /** Releases the rows, telling the server if its cursor is still open. */
    void close() throws SQLException;

    /** Releases the rows without any network traffic (the connection is going away). */
    void closeLocally();
}
