package org.phalanx.driver;

import java.sql.Types;
import java.util.Iterator;
import java.util.List;

import org.phalanx.protocol.ColumnInfo;
import org.phalanx.protocol.Execute;
import org.phalanx.protocol.MessageWriter;

/** Serves N generated rows (id, name) for any EXECUTE, honouring fetch size and scrollable. */
class Rowset extends FakeServer.Behaviour {
    static final List<ColumnInfo> COLUMNS = List.of(ColumnInfo.simple("id", Types.INTEGER, "INTEGER"),
            ColumnInfo.simple("name", Types.VARCHAR, "VARCHAR"));

    private final int rows;
    private final boolean honourScrollable;

    Rowset(int rows) {
        this(rows, true);
    }

    Rowset(int rows, boolean honourScrollable) {
        this.rows = rows;
        this.honourScrollable = honourScrollable;
    }

    static Iterator<Object[]> generate(int n) {
        return new Iterator<>() {
            private int next = 1;

            @Override
            public boolean hasNext() {
                return next <= n;
            }

            @Override
            public Object[] next() {
                int id = next++;
                return new Object[] {id, "row " + id};
            }
        };
    }

    @Override
    MessageWriter execute(Execute e, FakeServer.Session s) {
        return s.result(COLUMNS, generate(rows), e.fetchSize(), honourScrollable && e.scrollable());
    }
}
