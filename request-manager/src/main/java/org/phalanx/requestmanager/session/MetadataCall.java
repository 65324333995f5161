package org.phalanx.requestmanager.session;

import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.api.TypedNull;

import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;

/** Maps a metadata request (JDBC method name and arguments) onto a backend's DatabaseMetaData. */
final class MetadataCall {
    private MetadataCall() {
    }

    static ResultSet invoke(DatabaseMetaData md, String method, List<Object> args) throws SQLException {
        switch (method) {
            case "getTables":
                expect(method, args, 4);
                String types = str(args, 3);
                return md.getTables(str(args, 0), str(args, 1), str(args, 2), types == null ? null : types.split(","));
            case "getColumns":
                expect(method, args, 4);
                return md.getColumns(str(args, 0), str(args, 1), str(args, 2), str(args, 3));
            case "getPrimaryKeys":
                expect(method, args, 3);
                return md.getPrimaryKeys(str(args, 0), str(args, 1), str(args, 2));
            case "getIndexInfo":
                expect(method, args, 5);
                return md.getIndexInfo(str(args, 0), str(args, 1), str(args, 2), bool(args, 3), bool(args, 4));
            case "getImportedKeys":
                expect(method, args, 3);
                return md.getImportedKeys(str(args, 0), str(args, 1), str(args, 2));
            case "getExportedKeys":
                expect(method, args, 3);
                return md.getExportedKeys(str(args, 0), str(args, 1), str(args, 2));
            case "getTypeInfo":
                return md.getTypeInfo();
            case "getSchemas":
                return args.size() >= 2 ? md.getSchemas(str(args, 0), str(args, 1)) : md.getSchemas();
            case "getCatalogs":
                return md.getCatalogs();
            case "getTableTypes":
                return md.getTableTypes();
            default:
                throw new SQLFeatureNotSupportedException("metadata method " + method + " is not supported",
                        SqlState.FEATURE_NOT_SUPPORTED.code());
        }
    }

    private static void expect(String method, List<Object> args, int n) throws SQLException {
        if (args.size() != n) {
            throw new SQLException(method + " takes " + n + " arguments, got " + args.size(),
                    SqlState.USING_CLAUSE_DOES_NOT_MATCH_DYNAMIC_PARAMETERS.code());
        }
    }

    private static String str(List<Object> args, int i) {
        Object v = args.get(i);
        return v == null || v instanceof TypedNull ? null : v.toString();
    }

    private static boolean bool(List<Object> args, int i) {
        Object v = args.get(i);
        return v instanceof Boolean b ? b : v != null && !(v instanceof TypedNull) && Boolean.parseBoolean(v.toString());
    }
}
