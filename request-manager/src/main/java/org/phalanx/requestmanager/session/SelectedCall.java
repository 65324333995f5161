package org.phalanx.requestmanager.session;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.rowset.RowSetMetaDataImpl;
import org.phalanx.requestmanager.api.Result;

/** What calls a session answers itself ({@code SELECT f(...)}: advisory locks, set_config) share. */
final class SelectedCall {
    private SelectedCall() {
    }

    /** Each argument as text: a parameter's value, a number, a quoted string; null if another expression. */
    static List<String> arguments(String list, List<Object> params) {
        List<String> out = new ArrayList<>();
        if (list.isBlank()) {
            return out;
        }
        int next = 0;
        for (String raw : list.split(",")) {
            String a = raw.strip();
            if (a.equals("?")) {
                if (next >= params.size() || params.get(next) == null) {
                    return null;
                }
                out.add(String.valueOf(params.get(next++)));
            } else if (a.matches("-?\\d+(\\.\\d+)?") || a.equalsIgnoreCase("true") || a.equalsIgnoreCase("false")) {
                out.add(a);
            } else if (a.length() >= 2 && a.startsWith("'") && a.endsWith("'")) {
                out.add(a.substring(1, a.length() - 1).replace("''", "'"));
            } else {
                return null;
            }
        }
        return out;
    }

    /** A result of one row and one column named after the function. */
    static Result row(String function, int type, String typeName, Object value) throws SQLException {
        RowSetMetaDataImpl md = new RowSetMetaDataImpl();
        md.setColumnCount(1);
        md.setColumnLabel(1, function);
        md.setColumnName(1, function);
        md.setColumnType(1, type);
        md.setColumnTypeName(1, typeName);
        md.setNullable(1, java.sql.ResultSetMetaData.columnNullable);
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {value});
        return new Result.Cached(md, rows);
    }
}
