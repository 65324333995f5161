package org.phalanx.requestmanager.analysis;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.insert.InsertConflictAction;
import net.sf.jsqlparser.statement.insert.ConflictActionType;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * Works out the {@link Footprint} of a statement: which tables, columns and rows (by
 * {@code column = value} equalities) it reads or writes, for precise result-cache invalidation.
 *
 * <p>Sound before precise: a footprint may claim more columns (null: all) and fewer keys than the
 * statement really touches, never less. Null means "could not work it out": the caller falls back
 * to table granularity.
 *
 * <h2>Decisions</h2>
 * <ul>
 * <li>Table names: {@link SqlAnalyzer#normalize} of the last name part ({@code public.items} and
 * {@code "Items"} are both {@code items}); column names likewise, unqualified.
 * <li>Parameters: numbered as JDBC does, 1-based in textual order across the whole statement
 * (select list, subqueries, WHERE, LIMIT...), which is what JSqlParser's
 * {@link JdbcParameter#getIndex()} gives; see {@link Parameters} for when the numbers are not
 * trusted (no parameter key is then made).
 * <li>Literals: integers as {@link Long} (beyond long: no key), decimals as {@link BigDecimal} (as
 * written: {@code 1.50} has scale 2), strings as {@link String} (quotes undoubled; no key for
 * prefixed strings {@code E'..'} or strings with a backslash, whose value depends on the dialect),
 * TRUE/FALSE as {@link Boolean}; NULL, casts, dates, expressions: no key.
 * <li>{@code COUNT(*)} (also as a window function) uses no column: {@code SELECT COUNT(*) FROM
 * items} has columns {} and no keys. It still depends on every row, but only INSERT and DELETE
 * change which rows exist and their footprints say {@code rowsChange}; an UPDATE of any column
 * cannot change the count. {@code t.*}, and {@code *} anywhere else, mean every column (null).
 * <li>Reads ({@link #read}): precise for plain SELECTs over tables, joins (comma, INNER, OUTER,
 * USING, NATURAL) and subqueries in expressions; per table, columns referenced through its alias
 * or name, and an unqualified column when it is the only table in sight, otherwise every column of
 * every table in sight. Keys only from the top-level AND conjuncts of the outermost WHERE, for a
 * column that can be of one table only; a table read more than once (self join, subquery) keeps
 * only the keys every occurrence has. UNION/INTERSECT/EXCEPT, WITH, derived tables, LATERAL,
 * VALUES, table functions, PIVOT, aliases renaming columns, CONNECT BY: every table named, every
 * column, no keys. Null for non-SELECTs, SELECT INTO, a SELECT containing an INSERT/UPDATE/DELETE
 * and a column qualified by something that is not a table in sight.
 * <li>Writes ({@link #write}): INSERT (every column, rows change, keys from a single VALUES row
 * with explicit columns, also with ON CONFLICT DO NOTHING; no keys for INSERT ... SELECT, several
 * rows, INSERT ... SET, INSERT IGNORE); UPDATE (the SET columns, rows do not change, keys from
 * the WHERE minus any SET column); DELETE (every column, rows change, keys from the WHERE).
 * UPDATE ... FROM, DELETE ... USING and {@code DELETE a FROM a JOIN b}: the target only, no keys.
 * MySQL multi-table forms ({@code UPDATE a JOIN b SET}, {@code UPDATE a, b SET},
 * {@code DELETE a, b FROM}, {@code DELETE FROM a, b USING}, a SET column qualified by another
 * table) may write any table they name: every one of them, no keys. Null for MERGE, REPLACE,
 * INSERT OR ..., UPSERT, ON DUPLICATE KEY UPDATE, ON CONFLICT DO UPDATE and every other
 * statement.
 * </ul>
 *
 * <p>Keys hold under the database's own comparison (collation, type conversion), so a cache must
 * compare key values with {@link #mayBeEqual}, not {@code equals}. An INSERT key is the value
 * sent, and the database may store another: a NULL (already "unknown" to {@link #mayBeEqual}) or,
 * on MySQL, a 0 in an AUTO_INCREMENT column becomes the next id. Literal zeros make no INSERT key;
 * a parameter bound to 0 in an INSERT key must be treated as unknown (null) by the caller.
 *
 * <p>Limits common to every SQL-text analysis: triggers, foreign-key cascades, views, table
 * inheritance and functions reading tables are not seen; nor are columns the database changes by
 * itself on UPDATE (generated columns, MySQL's {@code ON UPDATE CURRENT_TIMESTAMP}), which an
 * UPDATE footprint does not list.
 */
public final class Footprints {

    private Footprints() {
    }

    /**
     * What a SELECT reads, or null.
     */
    public static Footprint read(Statement statement) {
        if (!(statement instanceof Select select)) {
            return null;
        }
        try {
            return ReadFootprint.of(select);
        } catch (RuntimeException | StackOverflowError e) {
            return null;
        }
    }

    /**
     * What an INSERT, UPDATE or DELETE writes, or null.
     */
    public static Footprint write(Statement statement) {
        try {
            if (statement instanceof Insert insert) {
                return insert(insert);
            }
            if (statement instanceof Update update) {
                return update(update);
            }
            if (statement instanceof Delete delete) {
                return delete(delete);
            }
            return null;
        } catch (RuntimeException | StackOverflowError e) {
            return null;
        }
    }

    /**
     * Whether two key values may be equal in SQL, erring towards yes: null (unknown, or a bound
     * NULL that the database may replace, e.g. by an auto-increment value) may equal anything;
     * numbers compare by value whatever their Java type; a number, a string and a boolean may be
     * equal to each other (type conversion: {@code '7' = 7}, {@code TRUE = 1}); two strings may be
     * equal unless both are plain ASCII and differ other than by letter case and trailing spaces
     * (case-insensitive and PAD SPACE collations; other characters depend on the collation).
     */
    public static boolean mayBeEqual(Object a, Object b) {
        if (a == null || b == null) {
            return true;
        }
        if (a instanceof Number x && b instanceof Number y) {
            BigDecimal dx = decimal(x);
            BigDecimal dy = decimal(y);
            return dx == null || dy == null || dx.compareTo(dy) == 0;
        }
        if (a instanceof String x && b instanceof String y) {
            if (!printableAscii(x) || !printableAscii(y)) {
                return true;
            }
            return stripTrailingSpaces(x).equalsIgnoreCase(stripTrailingSpaces(y));
        }
        if (a instanceof Boolean && b instanceof Boolean) {
            return a.equals(b);
        }
        if (a.getClass() == b.getClass() && !(a instanceof Number || a instanceof String || a instanceof Boolean)) {
            return a.equals(b);
        }
        return true;
    }

    /**
     * A value standing for every value {@link #mayBeEqual} to it within its kind (numbers,
     * strings, booleans), so key values can be looked up in a hash table; null when there is
     * none (text that some collation may equal to other text, other types). Values of
     * different kinds may be equal to each other and never share a class.
     */
    public static Object equalityClass(Object v) {
        if (v instanceof Number n) {
            BigDecimal d = decimal(n);
            return d == null ? null : d.stripTrailingZeros();
        }
        if (v instanceof String s) {
            return printableAscii(s) ? stripTrailingSpaces(s).toLowerCase(java.util.Locale.ROOT) : null;
        }
        return v instanceof Boolean ? v : null;
    }

    private static BigDecimal decimal(Number n) {
        if (n instanceof BigDecimal d) {
            return d;
        }
        if (n instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        if (n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte) {
            return BigDecimal.valueOf(n.longValue());
        }
        double d = n.doubleValue();
        return Double.isFinite(d) ? new BigDecimal(d) : null;
    }

    private static boolean printableAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    private static String stripTrailingSpaces(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return s.substring(0, end);
    }

    // ---------------------------------------------------------------- writes

    private static Footprint insert(Insert insert) {
        Table table = insert.getTable();
        if (table == null || !empty(insert.getDuplicateUpdateSets())) {
            return null; // ON DUPLICATE KEY UPDATE: updates a row whose other values we do not know
        }
        InsertConflictAction conflict = insert.getConflictAction();
        if (conflict != null && conflict.getConflictActionType() != ConflictActionType.DO_NOTHING) {
            return null; // ON CONFLICT DO UPDATE
        }
        List<KeyValue> keys = List.of();
        ExpressionList<Column> columns = insert.getColumns();
        // INSERT IGNORE may store converted values (truncated strings...): its values are no keys
        if (!insert.isModifierIgnore() && empty(insert.getSetUpdateSets()) && empty(insert.getWithItemsList())
                && columns != null && !columns.isEmpty()
                && insert.getSelect() instanceof Values values && empty(values.getWithItemsList())
                && values.getExpressions() instanceof ParenthesedExpressionList<?> row && row.size() == columns.size()) {
            boolean trusted = Parameters.trusted(insert);
            List<KeyValue> found = new ArrayList<>();
            for (int i = 0; i < columns.size(); i++) {
                Column column = columns.get(i);
                if (column.getArrayConstructor() != null) {
                    continue;
                }
                KeyValue key = key(columnName(column), row.get(i), trusted);
                // MySQL stores the next auto-increment value, not 0, in an AUTO_INCREMENT column
                if (key != null && !(key.literal() instanceof Number n && decimal(n).signum() == 0)) {
                    found.add(key);
                }
            }
            keys = List.copyOf(found);
        }
        return new Footprint(List.of(new TableFootprint(tableName(table), null, keys, true)));
    }

    private static Footprint update(Update update) {
        Table table = update.getTable();
        if (table == null || empty(update.getUpdateSets())) {
            return null;
        }
        Set<String> columns = new LinkedHashSet<>();
        for (UpdateSet set : update.getUpdateSets()) {
            if (set.getColumns() == null || set.getColumns().isEmpty()) {
                return null;
            }
            for (Column column : set.getColumns()) {
                columns.add(columnName(column));
            }
        }
        Set<String> changed = Set.copyOf(columns);
        boolean otherTarget = false;
        for (UpdateSet set : update.getUpdateSets()) {
            for (Column column : set.getColumns()) {
                String qualifier = qualifier(column);
                otherTarget |= qualifier != null && !names(table, qualifier);
            }
        }
        if (otherTarget || !empty(update.getStartJoins()) || (!empty(update.getJoins()) && update.getFromItem() == null)) {
            // UPDATE a JOIN b SET a.x = .., b.y = ..: MySQL writes any table it names
            return everything(update, false, changed);
        }
        List<KeyValue> keys = List.of();
        if (update.getFromItem() == null && empty(update.getJoins())) {
            keys = new ArrayList<>();
            for (KeyValue key : whereKeys(update.getWhere(), table, Parameters.trusted(update))) {
                if (!changed.contains(key.column())) { // the row leaves the key's value
                    keys.add(key);
                }
            }
            keys = List.copyOf(keys);
        }
        return new Footprint(List.of(new TableFootprint(tableName(table), changed, keys, false)));
    }

    private static Footprint delete(Delete delete) {
        Table table = delete.getTable();
        if (table == null) {
            return null;
        }
        boolean joined = !empty(delete.getUsingList()) || !empty(delete.getJoins());
        if (!empty(delete.getTables())) {
            // DELETE a, b FROM a JOIN b ...: every table in the list loses rows
            for (Table named : delete.getTables()) {
                if (!names(table, normalize(named.getName()))) {
                    return everything(delete, true, null);
                }
            }
        } else if (!empty(delete.getJoins())) {
            // DELETE FROM a, b USING ... (the parser puts b in the joins): a and b lose rows
            return everything(delete, true, null);
        }
        List<KeyValue> keys = joined ? List.of() : whereKeys(delete.getWhere(), table, Parameters.trusted(delete));
        return new Footprint(List.of(new TableFootprint(tableName(table), null, keys, true)));
    }

    /** The top-level WHERE equalities on columns of {@code table}, the only table of the statement. */
    private static List<KeyValue> whereKeys(Expression where, Table table, boolean trusted) {
        if (where == null) {
            return List.of();
        }
        List<KeyValue> keys = new ArrayList<>();
        for (Expression conjunct : conjuncts(where)) {
            Equality equality = equality(conjunct, trusted);
            if (equality != null) {
                String qualifier = qualifier(equality.column());
                if (qualifier == null || names(table, qualifier)) {
                    keys.add(equality.key());
                }
            }
        }
        return List.copyOf(keys);
    }

    private static boolean names(Table table, String qualifier) {
        return qualifier.equals(tableName(table))
                || (table.getAlias() != null && table.getAlias().getName() != null
                        && qualifier.equals(normalize(table.getAlias().getName())));
    }

    // ---------------------------------------------------------------- shared with ReadFootprint

    /** A {@code column = value} conjunct. */
    record Equality(Column column, KeyValue key) {
    }

    /** The top-level AND conjuncts of a condition, parentheses removed. */
    static List<Expression> conjuncts(Expression condition) {
        List<Expression> out = new ArrayList<>();
        addConjuncts(condition, out);
        return out;
    }

    private static void addConjuncts(Expression e, List<Expression> out) {
        if (e instanceof ParenthesedExpressionList<?> p && p.size() == 1) {
            addConjuncts(p.get(0), out);
        } else if (e != null && e.getClass() == AndExpression.class) {
            AndExpression and = (AndExpression) e;
            addConjuncts(and.getLeftExpression(), out);
            addConjuncts(and.getRightExpression(), out);
        } else if (e != null) {
            out.add(e);
        }
    }

    /** {@code col = literal}, {@code col = ?} or the mirror image; null for anything else. */
    static Equality equality(Expression conjunct, boolean parametersTrusted) {
        if (conjunct == null || conjunct.getClass() != EqualsTo.class) {
            return null;
        }
        EqualsTo equals = (EqualsTo) conjunct;
        if (equals.getOldOracleJoinSyntax() != EqualsTo.NO_ORACLE_JOIN
                || equals.getOraclePriorPosition() != EqualsTo.NO_ORACLE_PRIOR) {
            return null;
        }
        Expression left = equals.getLeftExpression();
        Expression right = equals.getRightExpression();
        if (!(left instanceof Column) && right instanceof Column) {
            Expression swap = left;
            left = right;
            right = swap;
        }
        if (left == null || left.getClass() != Column.class) {
            return null;
        }
        Column column = (Column) left;
        if (column.getArrayConstructor() != null) {
            return null;
        }
        KeyValue key = key(columnName(column), right, parametersTrusted);
        return key == null ? null : new Equality(column, key);
    }

    private static KeyValue key(String column, Expression value, boolean parametersTrusted) {
        if (value instanceof JdbcParameter parameter) {
            return parametersTrusted ? KeyValue.parameter(column, parameter.getIndex()) : null;
        }
        Object literal = literal(value);
        return literal == null ? null : KeyValue.literal(column, literal);
    }

    /** The Java value of a literal, or null if it is not one we can vouch for. */
    static Object literal(Expression e) {
        if (e == null) {
            return null;
        }
        if (e.getClass() == LongValue.class) {
            try {
                return new BigInteger(((LongValue) e).getStringValue().trim()).longValueExact();
            } catch (ArithmeticException | NumberFormatException ex) {
                return null;
            }
        }
        if (e.getClass() == DoubleValue.class) {
            try {
                return new BigDecimal(((DoubleValue) e).toString().trim());
            } catch (NumberFormatException ex) {
                return null;
            }
        }
        if (e.getClass() == SignedExpression.class) {
            SignedExpression signed = (SignedExpression) e;
            Object inner = literal(signed.getExpression());
            if (signed.getSign() == '+' && inner instanceof Number) {
                return inner;
            }
            if (signed.getSign() == '-') {
                if (inner instanceof Long l) {
                    return l == Long.MIN_VALUE ? null : -l;
                }
                if (inner instanceof BigDecimal d) {
                    return d.negate();
                }
            }
            return null;
        }
        if (e.getClass() == StringValue.class) {
            StringValue string = (StringValue) e;
            String prefix = string.getPrefix();
            String value = string.getValue();
            if ((prefix != null && !prefix.equalsIgnoreCase("N")) || value == null || value.indexOf('\\') >= 0) {
                return null;
            }
            return value.replace("''", "'");
        }
        if (e.getClass() == BooleanValue.class) {
            return ((BooleanValue) e).getValue();
        }
        return null;
    }

    /** Footprints of two occurrences of one table: every column of either, keys both have. */
    static TableFootprint union(TableFootprint a, TableFootprint b) {
        Set<String> columns = null;
        if (a.columns() != null && b.columns() != null) {
            Set<String> both = new LinkedHashSet<>(a.columns());
            both.addAll(b.columns());
            columns = Set.copyOf(both);
        }
        List<KeyValue> keys = new ArrayList<>(a.keys());
        keys.retainAll(b.keys());
        // a table read twice: its result rows do not map to its rows one to one
        return new TableFootprint(a.table(), columns, List.copyOf(keys), a.rowsChange() || b.rowsChange(), null);
    }

    /**
     * One footprint, with {@code columns} and no keys, for every table the statement names:
     * those {@link TablesNamesFinder} finds and every table node anywhere in the statement (aliases
     * and WITH names included: an extra name costs nothing, a missing one would be unsound).
     */
    static Footprint everything(Statement statement, boolean rowsChange, Set<String> columns) {
        Set<String> names = new LinkedHashSet<>();
        AstWalker.walk(statement, node -> {
            if (node instanceof Column || node instanceof AllTableColumns) {
                return false; // the qualifier is an alias or a table named elsewhere
            }
            if (node instanceof Table table && table.getName() != null) {
                names.add(tableName(table));
            }
            return true;
        });
        for (String name : new TablesNamesFinder<>().getTables(statement)) {
            names.add(normalize(lastPart(name)));
        }
        Map<String, TableFootprint> out = new LinkedHashMap<>();
        for (String name : names) {
            out.put(name, new TableFootprint(name, columns, List.of(), rowsChange));
        }
        return new Footprint(List.copyOf(out.values()));
    }

    /** The last part of a dotted name, dots inside quotes ignored. */
    private static String lastPart(String name) {
        char quote = 0;
        int start = 0;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '`') {
                quote = c;
            } else if (c == '[') {
                quote = ']';
            } else if (c == '.') {
                start = i + 1;
            }
        }
        return name.substring(start);
    }

    static String normalize(String name) {
        return SqlAnalyzer.normalize(name.trim());
    }

    /** A table's name without schema, database or quotes, lower case. */
    static String tableName(Table table) {
        return normalize(table.getName());
    }

    static String columnName(Column column) {
        return normalize(column.getColumnName());
    }

    /** The table name or alias a column is qualified with (last part, normalised), or null. */
    static String qualifier(Column column) {
        Table table = column.getTable();
        if (table == null || table.getName() == null || table.getName().isBlank()) {
            return null;
        }
        return normalize(table.getName());
    }

    private static boolean empty(java.util.Collection<?> collection) {
        return collection == null || collection.isEmpty();
    }
}
