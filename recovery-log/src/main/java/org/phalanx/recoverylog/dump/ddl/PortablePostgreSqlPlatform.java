package org.phalanx.recoverylog.dump.ddl;

import java.io.IOException;
import java.sql.Types;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.ddlutils.model.Column;
import org.apache.ddlutils.model.ForeignKey;
import org.apache.ddlutils.model.Database;
import org.apache.ddlutils.model.Table;
import org.apache.ddlutils.platform.postgresql.PostgreSqlBuilder;
import org.apache.ddlutils.platform.postgresql.PostgreSqlPlatform;

/**
 * DdlUtils' PostgreSQL platform with the builder fixed for restores:
 * <ul>
 * <li>identity columns become {@code SERIAL}/{@code BIGSERIAL}: DdlUtils 1.0 creates a separate
 *     sequence and {@code DEFAULT nextval('Name_col_seq')} without quoting the name (broken for
 *     mixed-case tables), owned by nobody (left behind by DROP TABLE, invisible to
 *     {@code pg_get_serial_sequence}, which we use to reset counters);</li>
 * <li>portable current-time defaults print as SQL, boolean defaults as {@code true}/{@code false}.</li>
 * </ul>
 */
public class PortablePostgreSqlPlatform extends PostgreSqlPlatform {
    public static final String NAME = "PhalanxPostgreSql";

    public PortablePostgreSqlPlatform() {
        setSqlBuilder(new Builder(this));
    }

    @Override
    public String getName() {
        return NAME;
    }

    static final class Builder extends PostgreSqlBuilder implements ForeignKeyRules.Aware {
        private final ForeignKeyRules rules = new ForeignKeyRules();

        @Override
        public ForeignKeyRules foreignKeyRules() {
            return rules;
        }

        @Override
        protected void writeForeignReferences(ForeignKey key) throws IOException {
            super.writeForeignReferences(key);
            rules.referencesWritten(key);
        }

        @Override
        protected void print(String text) throws IOException {
            super.print(rules.beforePrint(text));
        }

        private final Set<Column> serial = Collections.newSetFromMap(new IdentityHashMap<>()); // Column hashes by content

        Builder(PostgreSqlPlatform platform) {
            super(platform);
        }

        @Override
        public void createTable(Database database, Table table, @SuppressWarnings("rawtypes") Map parameters)
                throws IOException {
            Column[] auto = table.getAutoIncrementColumns();
            for (Column c : auto) {
                c.setAutoIncrement(false); // keeps PostgreSqlBuilder from writing its own sequence
                serial.add(c);
            }
            try {
                super.createTable(database, table, parameters);
            } finally {
                for (Column c : auto) {
                    c.setAutoIncrement(true);
                }
                serial.clear();
            }
        }

        @Override
        protected String getSqlType(Column column) {
            if (serial.contains(column)) {
                return switch (column.getTypeCode()) {
                    case Types.BIGINT -> "BIGSERIAL";
                    case Types.SMALLINT, Types.TINYINT -> "SMALLSERIAL";
                    default -> "SERIAL";
                };
            }
            return super.getSqlType(column);
        }

        @Override
        protected void writeColumnDefaultValueStmt(Table table, Column column) throws IOException {
            if (serial.contains(column)) {
                return;
            }
            String sql = Builders.defaultSql(column, Builders.POSTGRESQL);
            if (sql != null) {
                print(" DEFAULT " + sql);
            }
        }
    }
}
