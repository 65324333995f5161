package org.phalanx.requestmanager.hetero;

import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Types;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.create.index.CreateIndex;
import net.sf.jsqlparser.statement.create.table.ColumnDefinition;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import org.apache.ddlutils.Platform;
import org.apache.ddlutils.model.Column;
import org.apache.ddlutils.model.Database;
import org.apache.ddlutils.model.Index;
import org.apache.ddlutils.model.IndexColumn;
import org.apache.ddlutils.model.NonUniqueIndex;
import org.apache.ddlutils.model.Table;
import org.apache.ddlutils.model.UniqueIndex;
import org.apache.ddlutils.platform.SqlBuilder;
import org.phalanx.recoverylog.dump.ddl.DefaultValues;
import org.phalanx.recoverylog.dump.ddl.Platforms;
import org.phalanx.recoverylog.dump.ddl.PortableMySqlPlatform;
import org.phalanx.recoverylog.dump.ddl.PortablePostgreSqlPlatform;
import org.phalanx.recoverylog.dump.ddl.SqlitePlatform;
import org.phalanx.recoverylog.dump.ddl.SqliteTypes;
import org.phalanx.engine.Engine;

/**
 * Turns an application's portable {@code CREATE TABLE} or {@code CREATE INDEX} (standard types, an
 * auto-generated key written {@code GENERATED ... AS IDENTITY}, {@code SERIAL}, {@code AUTO_INCREMENT} or
 * {@code AUTOINCREMENT}) into each engine's own form through a DdlUtils model and the platforms the
 * portable dumps use, so the same statement creates equivalent tables on SQLite, PostgreSQL and
 * MariaDB: BOOLEAN is a boolean on PostgreSQL and TINYINT(1) on MariaDB, TIMESTAMP keeps
 * microseconds on MariaDB (DATETIME(6)), text is unbounded everywhere, the key column is
 * {@code INTEGER PRIMARY KEY AUTOINCREMENT}, {@code SERIAL} or {@code AUTO_INCREMENT}.
 *
 * <p>Only what is understood is translated: a statement with anything else (foreign keys,
 * CHECK, table options, an unknown type, a default that is an expression) is left as written,
 * for the engines to accept or refuse. Identifiers are written as the application wrote them,
 * unquoted, so each engine folds them as it would have.
 */
public final class PortableDdl {
    private static final Set<String> TYPE_WORDS = Set.of("INT", "INTEGER", "SMALLINT", "TINYINT", "BIGINT", "BOOLEAN",
            "BOOL", "DECIMAL", "DEC", "NUMERIC", "REAL", "FLOAT", "DOUBLE", "DOUBLE PRECISION", "CHAR", "CHARACTER",
            "VARCHAR", "CHARACTER VARYING", "NCHAR", "NVARCHAR", "TEXT", "CLOB", "BLOB", "BINARY", "VARBINARY", "DATE",
            "TIME", "TIMESTAMP", "DATETIME", "SERIAL", "BIGSERIAL", "SMALLSERIAL");

    private PortableDdl() {
    }

    /**
     * The statements each engine runs for this one, or null when it is not portable DDL this class
     * understands (then every engine gets it as written).
     */
    public static Map<Engine, List<String>> translate(String sql) {
        Statement statement;
        try {
            statement = CCJSqlParserUtil.parse(sql);
        } catch (JSQLParserException | RuntimeException e) {
            return null;
        }
        try {
            if (statement instanceof CreateTable create) {
                Table table = table(create);
                return table == null ? null : forEveryEngine((b, engine) -> createTable(b, table, engine),
                        create.isIfNotExists());
            }
            if (statement instanceof CreateIndex create) {
                return createIndex(create);
            }
        } catch (IOException | ReflectiveOperationException | RuntimeException e) {
            return null; // DdlUtils could not write it: the engines get the statement as written
        }
        return null;
    }

    @FunctionalInterface
    private interface Writing {
        void write(SqlBuilder builder, Engine engine) throws IOException, ReflectiveOperationException;
    }

    private static Map<Engine, List<String>> forEveryEngine(Writing writing, boolean ifNotExists)
            throws IOException, ReflectiveOperationException {
        Map<Engine, List<String>> out = new EnumMap<>(Engine.class);
        for (Engine engine : List.of(Engine.SQLITE, Engine.POSTGRESQL, Engine.MARIADB)) {
            Platform platform = Platforms.create(platformName(engine));
            platform.setDelimitedIdentifierModeOn(false); // names as the application wrote them
            SqlBuilder builder = platform.getSqlBuilder();
            StringWriter text = new StringWriter();
            builder.setWriter(text);
            writing.write(builder, engine);
            List<String> statements = split(text.toString());
            if (ifNotExists) {
                statements.replaceAll(st -> st.replaceFirst("^CREATE (TABLE|UNIQUE INDEX|INDEX) ", "CREATE $1 IF NOT EXISTS "));
            }
            out.put(engine, List.copyOf(statements));
        }
        return out;
    }

    private static String platformName(Engine engine) {
        return switch (engine) {
            case SQLITE -> SqlitePlatform.NAME;
            case POSTGRESQL -> PortablePostgreSqlPlatform.NAME;
            case MARIADB -> PortableMySqlPlatform.NAME;
            default -> throw new IllegalArgumentException(engine.toString());
        };
    }

    private static void createTable(SqlBuilder builder, Table table, Engine engine) throws IOException {
        List<Column> bounded = engine == Engine.MARIADB ? boundKeyedText(table) : List.of();
        try {
            Database db = new Database();
            db.setName("portable");
            db.addTable(table);
            db.initialize();
            builder.createTable(db, table);
        } finally {
            for (Column c : bounded) {
                c.setTypeCode(Types.LONGVARCHAR);
                c.setSize(null);
            }
        }
    }

    /**
     * MariaDB cannot index unbounded text: a TEXT column in a key or index becomes VARCHAR(768)
     * there (768 four-byte characters fill InnoDB's 3072-byte key limit). Returns those columns.
     */
    private static List<Column> boundKeyedText(Table table) {
        List<Column> keyed = new ArrayList<>();
        for (Column c : table.getColumns()) {
            boolean inKey = c.isPrimaryKey();
            for (Index i : table.getIndices()) {
                for (IndexColumn ic : i.getColumns()) {
                    inKey |= ic.getColumn() == c;
                }
            }
            if (inKey && c.getTypeCode() == Types.LONGVARCHAR) {
                c.setTypeCode(Types.VARCHAR);
                c.setSize("768");
                keyed.add(c);
            }
        }
        return keyed;
    }

    /** The statements DdlUtils printed, without terminators and blank lines. */
    private static List<String> split(String text) {
        List<String> statements = new ArrayList<>();
        for (String part : text.split(";\\s*(\\r?\\n|$)")) {
            String s = part.strip();
            if (!s.isEmpty()) {
                statements.add(s);
            }
        }
        return statements;
    }

    // ------------------------------------------------------------------ CREATE TABLE

    /** The DdlUtils table for the statement, or null if it holds something not translated. */
    private static Table table(CreateTable create) {
        if (create.getColumnDefinitions() == null || create.getColumnDefinitions().isEmpty() || create.getSelect() != null
                || create.getLikeTable() != null || notEmpty(create.getTableOptionsStrings())
                || notEmpty(create.getCreateOptionsStrings()) || create.getTable().getSchemaName() != null) {
            return null;
        }
        Table table = new Table();
        table.setName(create.getTable().getName());
        Map<String, Column> columns = new LinkedHashMap<>();
        for (ColumnDefinition d : create.getColumnDefinitions()) {
            Column c = column(d);
            if (c == null) {
                return null;
            }
            columns.put(c.getName().toLowerCase(Locale.ROOT), c);
            table.addColumn(c);
            if (d.getColumnSpecs() != null && hasWord(d.getColumnSpecs(), "UNIQUE")) {
                table.addIndex(index(new UniqueIndex(), table.getName() + "_" + c.getName() + "_key", List.of(c)));
            }
        }
        if (create.getIndexes() != null) {
            for (net.sf.jsqlparser.statement.create.table.Index i : create.getIndexes()) {
                List<Column> indexed = new ArrayList<>();
                for (String name : i.getColumnsNames()) {
                    Column c = columns.get(unquote(name).toLowerCase(Locale.ROOT));
                    if (c == null) {
                        return null;
                    }
                    indexed.add(c);
                }
                String type = i.getType() == null ? "" : i.getType().toUpperCase(Locale.ROOT);
                String name = i.getName() != null ? unquote(i.getName())
                        : table.getName() + "_" + String.join("_", indexed.stream().map(Column::getName).toList()) + "_key";
                switch (type) {
                    case "PRIMARY KEY" -> indexed.forEach(c -> {
                        c.setPrimaryKey(true);
                        c.setRequired(true);
                    });
                    case "UNIQUE", "UNIQUE KEY", "UNIQUE INDEX" -> table.addIndex(index(new UniqueIndex(), name, indexed));
                    case "INDEX", "KEY" -> table.addIndex(index(new NonUniqueIndex(), name, indexed));
                    default -> {
                        return null; // foreign keys, CHECK...: left to the engines as written
                    }
                }
            }
        }
        Column[] auto = table.getAutoIncrementColumns();
        if (auto.length > 1 || (auto.length == 1 && (table.getPrimaryKeyColumns().length != 1
                || table.getPrimaryKeyColumns()[0] != auto[0]))) {
            return null; // SQLite generates only its single-column integer primary key
        }
        return table;
    }

    private static Index index(Index index, String name, List<Column> columns) {
        index.setName(name);
        for (Column c : columns) {
            index.addColumn(new IndexColumn(c));
        }
        return index;
    }

    /** A column with its portable type, or null if the type or a constraint is not understood. */
    private static Column column(ColumnDefinition d) {
        // the parser keeps "DECIMAL (10, 2)" whole in the type name, or puts the numbers in the arguments
        String written = d.getColDataType().getDataType().toUpperCase(Locale.ROOT);
        int paren = written.indexOf('(');
        String typeName = (paren < 0 ? written : written.substring(0, paren)).replaceAll("\\s+", " ").strip();
        List<String> args = d.getColDataType().getArgumentsStringList();
        if (paren >= 0 && written.endsWith(")")) {
            args = List.of(written.substring(paren + 1, written.length() - 1).replace(" ", "").split(","));
        }
        if (!TYPE_WORDS.contains(typeName) || d.getColDataType().getArrayData() != null
                && !d.getColDataType().getArrayData().isEmpty()) {
            return null;
        }
        Column c = new Column();
        c.setName(unquote(d.getColumnName()));
        switch (typeName) {
            case "SERIAL", "SMALLSERIAL" -> {
                c.setTypeCode(Types.INTEGER);
                c.setAutoIncrement(true);
            }
            case "BIGSERIAL" -> {
                c.setTypeCode(Types.BIGINT);
                c.setAutoIncrement(true);
            }
            default -> {
                String declared = typeName + (args == null || args.isEmpty() ? "" : "(" + String.join(",", args) + ")");
                SqliteTypes.Mapped m = SqliteTypes.map(declared);
                c.setTypeCode(m.typeCode());
                if (m.size() != null) {
                    c.setSize(m.size().toString());
                }
                if (m.scale() != null) {
                    c.setScale(m.scale());
                }
            }
        }
        return constraints(c, d.getColumnSpecs() == null ? List.of() : d.getColumnSpecs()) ? c : null;
    }

    /** Applies the column's constraints; false if one is not understood. */
    private static boolean constraints(Column c, List<String> specs) {
        List<String> words = specs.stream().map(s -> s.toUpperCase(Locale.ROOT)).toList();
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            switch (w) {
                case "NOT" -> {
                    if (i + 1 >= words.size() || !words.get(i + 1).equals("NULL")) {
                        return false;
                    }
                    c.setRequired(true);
                    i++;
                }
                case "NULL", "UNIQUE" -> {
                    // nullable is the default; UNIQUE became an index above
                }
                case "PRIMARY" -> {
                    if (i + 1 >= words.size() || !words.get(i + 1).equals("KEY")) {
                        return false;
                    }
                    c.setPrimaryKey(true);
                    c.setRequired(true);
                    i++;
                }
                case "AUTO_INCREMENT", "AUTOINCREMENT" -> c.setAutoIncrement(true);
                case "GENERATED" -> {
                    int identity = words.indexOf("IDENTITY");
                    if (identity < i) {
                        return false;
                    }
                    c.setAutoIncrement(true);
                    i = identity;
                    if (i + 1 < words.size() && words.get(i + 1).startsWith("(")) {
                        i++; // (START WITH ...): the controller chooses keys anyway
                    }
                }
                case "DEFAULT" -> {
                    if (i + 1 >= words.size()) {
                        return false;
                    }
                    String raw = specs.get(++i);
                    if ((raw.equals("-") || raw.equals("+")) && i + 1 < words.size()) {
                        raw = raw + specs.get(++i);
                    }
                    String portable = DefaultValues.normalize(raw, c.getTypeCode());
                    if (portable == null && !raw.equalsIgnoreCase("NULL")) {
                        return false; // an expression no other engine would understand
                    }
                    c.setDefaultValue(portable);
                }
                default -> {
                    return false;
                }
            }
        }
        if (c.isAutoIncrement() && c.getTypeCode() != Types.INTEGER && c.getTypeCode() != Types.BIGINT
                && c.getTypeCode() != Types.SMALLINT) {
            return false;
        }
        return true;
    }

    // ------------------------------------------------------------------ CREATE INDEX

    private static Map<Engine, List<String>> createIndex(CreateIndex create) throws IOException, ReflectiveOperationException {
        net.sf.jsqlparser.statement.create.table.Index i = create.getIndex();
        String type = i.getType() == null ? "" : i.getType().toUpperCase(Locale.ROOT);
        if (!(type.isEmpty() || type.equals("UNIQUE")) || i.getName() == null || create.getTable().getSchemaName() != null
                || notEmpty(create.getTailParameters()) || i.getUsing() != null) {
            return null;
        }
        Table table = new Table();
        table.setName(create.getTable().getName());
        List<Column> columns = new ArrayList<>();
        for (String name : i.getColumnsNames()) {
            Column c = new Column();
            c.setName(unquote(name));
            c.setTypeCode(Types.INTEGER); // not printed: an index names its columns only
            table.addColumn(c);
            columns.add(c);
        }
        Index index = index(type.equals("UNIQUE") ? new UniqueIndex() : new NonUniqueIndex(), unquote(i.getName()), columns);
        table.addIndex(index);
        Method write = SqlBuilder.class.getDeclaredMethod("writeExternalIndexCreateStmt", Table.class, Index.class);
        write.setAccessible(true);
        return forEveryEngine((b, engine) -> {
            try {
                write.invoke(b, table, index);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
            }
        }, false);
    }

    private static boolean hasWord(List<String> specs, String word) {
        for (String s : specs) {
            if (s.equalsIgnoreCase(word)) {
                return true;
            }
        }
        return false;
    }

    private static boolean notEmpty(List<?> list) {
        return list != null && !list.isEmpty();
    }

    private static String unquote(String name) {
        if (name.length() >= 2 && (name.charAt(0) == '"' || name.charAt(0) == '`')
                && name.charAt(name.length() - 1) == name.charAt(0)) {
            return name.substring(1, name.length() - 1);
        }
        return name;
    }
}
