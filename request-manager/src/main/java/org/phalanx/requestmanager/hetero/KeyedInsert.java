package org.phalanx.requestmanager.hetero;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.Values;

/**
 * The shape of an {@code INSERT ... (columns) VALUES (...)[, (...)]}: its table, the columns it
 * names and how many rows it inserts; and the same statement with a key column and values added,
 * so every replica stores the key the controller chose.
 */
public final class KeyedInsert {
    /** A statement carrying its keys, and the parameters to run it with. */
    public record Keyed(String sql, List<Object> params) {
    }

    /**
     * How keys are written for PostgreSQL backends that receive the text untranslated. An identity
     * column declared {@code GENERATED ALWAYS} takes a given value only with {@code OVERRIDING SYSTEM
     * VALUE} (a serial or {@code BY DEFAULT} one takes it either way). A given value leaves the
     * column's sequence behind, where {@code nextval} would hand it out again (to a trigger, a function,
     * an application reaching the database directly): each key is written as {@code setval(sequence,
     * key)}, which stores the key and moves the sequence to it, in the backend's own order of inserts.
     *
     * @param sequence the sequence of the key column, or null if it has none
     */
    public record PostgresKeys(String sequence) {
    }

    /** The keyed text with one parameter per key, for one key column. */
    private record Template(String column, PostgresKeys postgres, String sql) {
    }

    /** Where the rows' keys come from, for one key column ({@link #givenKeys}). */
    private record GivenKeys(String column, List<Object> sources) {
    }

    private final String sql;
    private final String table;
    private final List<String> columns;
    private final int rows;
    private volatile Template template;
    private volatile GivenKeys givenKeys;

    private KeyedInsert(String sql, String table, List<String> columns, int rows) {
        this.sql = sql;
        this.table = table;
        this.columns = columns;
        this.rows = rows;
    }

    /**
     * The shape, or null for anything else (INSERT ... SELECT, no column list, not an INSERT), and for
     * an insert that may leave rows out ({@code ON CONFLICT}, {@code ON DUPLICATE KEY UPDATE},
     * {@code INSERT IGNORE}): keys chosen for rows it did not insert were answered as generated keys
     * (and as MariaDB's {@code LAST_INSERT_ID()}) though no row held them.
     */
    public static KeyedInsert of(String sql) {
        Insert insert = parse(sql);
        if (insert == null || insert.getColumns() == null || insert.getColumns().isEmpty()
                || !(insert.getSelect() instanceof Values values) || insert.isUseDuplicate()
                || insert.getConflictAction() != null || insert.isModifierIgnore()
                || insert.getWithItemsList() != null) {
            return null;
        }
        List<ExpressionList<?>> rows = rows(values);
        if (rows == null) {
            return null;
        }
        List<String> columns = new ArrayList<>();
        for (Column c : insert.getColumns()) {
            columns.add(c.getColumnName().replace("\"", "").replace("`", "").toLowerCase(Locale.ROOT));
        }
        return new KeyedInsert(sql, insert.getTable().getFullyQualifiedName(), List.copyOf(columns), rows.size());
    }

    /** The table as written. */
    public String table() {
        return table;
    }

    /** The named columns, lower case. */
    public List<String> columns() {
        return columns;
    }

    /** Rows in the VALUES list. */
    public int rows() {
        return rows;
    }

    /** Whether the statement names the column (then it supplies the key itself). */
    public boolean names(String column) {
        return columns.contains(column.toLowerCase(Locale.ROOT));
    }

    /**
     * The statement with {@code column} first and one key per row, run with {@code params};
     * {@code postgres} (or null) says how PostgreSQL backends take them.
     *
     * <p>The keys are parameters wherever they can come first (one row, or rows without
     * parameters of their own): then every insert of a statement has one text, parsed here once,
     * prepared once by the backend, and a prepared batch stays one JDBC batch. Rows with
     * parameters of their own get their keys as literals.
     */
    public Keyed withKeys(String column, long[] keys, List<Object> params, PostgresKeys postgres) {
        if (!keysAsParameters(params)) {
            return new Keyed(keyed(column, i -> new LongValue(keys[i]), postgres), params);
        }
        List<Object> keyed = new ArrayList<>(keys.length + params.size());
        for (long k : keys) {
            keyed.add(k);
        }
        keyed.addAll(params);
        return new Keyed(template(column, postgres), keyed);
    }

    /** Whether {@link #withKeys} gives the keys as parameters, so its text is {@link #template}. */
    public boolean keysAsParameters(List<Object> params) {
        return rows == 1 || params.isEmpty();
    }

    /** The statement with {@code column} first, its keys as parameters before any of the rows' own. */
    public String template(String column, PostgresKeys postgres) {
        Template t = template;
        if (t == null || !t.column().equals(column) || !java.util.Objects.equals(t.postgres(), postgres)) {
            t = new Template(column, postgres, keyed(column, i -> new JdbcParameter(), postgres));
            template = t;
        }
        return t.sql();
    }

    private String keyed(String column, IntFunction<Expression> key, PostgresKeys postgres) {
        Insert insert = parse(sql); // a fresh tree: parsed statements are not shared between threads
        insert.getColumns().add(0, new Column(column));
        List<ExpressionList<?>> rows = rows((Values) insert.getSelect());
        String sequence = postgres == null ? null : postgres.sequence();
        for (int i = 0; i < rows.size(); i++) {
            @SuppressWarnings("unchecked")
            ExpressionList<Expression> row = (ExpressionList<Expression>) rows.get(i);
            row.add(0, sequence == null ? key.apply(i) : setval(sequence, key.apply(i)));
        }
        String keyed = insert.toString();
        int values = keyed.indexOf(") VALUES ");
        return postgres != null && values > 0
                ? keyed.substring(0, values + 1) + " OVERRIDING SYSTEM VALUE" + keyed.substring(values + 1) : keyed;
    }

    /** {@code setval('sequence', key)}: the key, with the sequence moved to it. */
    private static Expression setval(String sequence, Expression key) {
        Function f = new Function();
        f.setName("setval");
        f.setParameters(new ExpressionList<>(new StringValue(sequence), key));
        return f;
    }

    /**
     * The keys the statement itself gives the column (literals, or parameters bound to numbers);
     * rows giving an expression are left out.
     */
    public List<Long> keysGiven(String column, List<Object> params) {
        List<Long> keys = new ArrayList<>();
        for (Object source : givenKeys(column)) {
            if (source instanceof Long literal) {
                keys.add(literal);
            } else if (source instanceof Integer parameter && parameter <= params.size()
                    && params.get(parameter - 1) instanceof Number n) {
                keys.add(n.longValue());
            }
        }
        return keys;
    }

    /**
     * Where each row's key comes from: a literal (Long) or a parameter's number (Integer); rows giving
     * an expression left out. Read once per column: a batch asks it for every element.
     */
    private List<Object> givenKeys(String column) {
        GivenKeys g = givenKeys;
        if (g == null || !g.column().equals(column)) {
            int at = columns.indexOf(column.toLowerCase(Locale.ROOT));
            List<Object> sources = new ArrayList<>();
            for (ExpressionList<?> row : rows((Values) parse(sql).getSelect())) {
                Object e = at < row.size() ? row.get(at) : null;
                if (e instanceof LongValue v) {
                    sources.add(v.getValue());
                } else if (e instanceof JdbcParameter p && p.getIndex() != null) {
                    sources.add(p.getIndex());
                }
            }
            g = new GivenKeys(column, List.copyOf(sources));
            givenKeys = g;
        }
        return g.sources();
    }

    /** One expression list per row: VALUES (a, b) is one row, VALUES (a, b), (c, d) two. */
    private static List<ExpressionList<?>> rows(Values values) {
        ExpressionList<?> list = values.getExpressions();
        if (list instanceof ParenthesedExpressionList<?>) {
            return List.of(list);
        }
        List<ExpressionList<?>> rows = new ArrayList<>();
        for (Object e : list) {
            if (!(e instanceof ParenthesedExpressionList<?> row)) {
                return null;
            }
            rows.add(row);
        }
        return rows;
    }

    private static Insert parse(String sql) {
        try {
            Statement s = CCJSqlParserUtil.parse(sql);
            return s instanceof Insert i ? i : null;
        } catch (JSQLParserException | RuntimeException e) {
            return null;
        }
    }
}
