package org.phalanx.driver;

import java.util.List;

/**
 * Every row in memory: backs scroll-insensitive result sets, metadata results and generated
 * keys. Position 0 is before the first row, size+1 after the last.
 */
final class BufferedRows implements Rows {
    private List<Object[]> rows;
    private int position;

    BufferedRows(List<Object[]> rows) {
        this.rows = rows;
    }

    int size() {
        return rows.size();
    }

    @Override
    public boolean next() {
        return moveTo(position + 1);
    }

    boolean previous() {
        return moveTo(position - 1);
    }

    /** JDBC absolute(): positive counts from the start, negative from the end, 0 is before the first row. */
    boolean absolute(int row) {
        if (row >= 0) {
            return moveTo(row);
        }
        int target = rows.size() + 1 + row;
        return moveTo(Math.max(target, 0));
    }

    boolean relative(int delta) {
        long target = (long) position + delta;
        return moveTo((int) Math.max(0, Math.min(target, rows.size() + 1L)));
    }

    boolean first() {
        return moveTo(1);
    }

    boolean last() {
        return moveTo(rows.size());
    }

    void beforeFirst() {
        position = 0;
    }

    void afterLast() {
        position = rows.size() + 1;
    }

    /** Clamps to [0, size+1]; true when the position is on a row. */
    private boolean moveTo(int target) {
        position = Math.max(0, Math.min(target, rows.size() + 1));
        return position >= 1 && position <= rows.size();
    }

    @Override
    public Object[] current() {
        return position >= 1 && position <= rows.size() ? rows.get(position - 1) : null;
    }

    @Override
    public int getRow() {
        return current() == null ? 0 : position;
    }

    @Override
    public boolean isBeforeFirst() {
        return position == 0 && !rows.isEmpty();
    }

    @Override
    public boolean isAfterLast() {
        return position == rows.size() + 1 && !rows.isEmpty();
    }

    @Override
    public boolean isFirst() {
        return position == 1 && !rows.isEmpty();
    }

    @Override
    public boolean isLast() {
        return position == rows.size() && !rows.isEmpty();
    }

    @Override
    public void close() {
        closeLocally();
    }

    @Override
    public void closeLocally() {
        rows = List.of();
        position = 0;
    }
}
