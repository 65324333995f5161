package org.phalanx.requestmanager.analysis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.Pivot;
import net.sf.jsqlparser.statement.select.PivotXml;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.UnPivot;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * The read footprint of one SELECT (see {@link Footprints#read}).
 *
 * <p>Precise mode handles plain SELECTs whose FROM items are all tables, with subqueries only in
 * expressions (WHERE, select list...). Every PlainSelect opens a scope holding its FROM tables
 * (occurrences); every column found anywhere under it (by {@link AstWalker}, which cannot skip a
 * clause) is resolved against that scope and the enclosing ones, as SQL does, but pessimistically:
 * a qualified column goes to every visible occurrence the qualifier may name (alias or table
 * name), an unqualified one to the only visible occurrence, or, when several are visible and we
 * cannot know which has the column, makes all of them "every column".
 *
 * <p>Anything else (set operations, WITH, derived tables, LATERAL, table functions, PIVOT,
 * renamed columns {@code t(a, b)}, CONNECT BY...) falls back to coarse mode: every table named,
 * every column, no keys.
 */
final class ReadFootprint implements AstWalker.Visitor {

    /** One table in one FROM clause. */
    private static final class Occurrence {
        final String table;
        final String alias;
        final Set<String> columns = new LinkedHashSet<>();
        boolean allColumns;
        List<KeyValue> keys = List.of();

        Occurrence(String table, String alias) {
            this.table = table;
            this.alias = alias;
        }

        boolean answersTo(String qualifier) {
            return qualifier.equals(alias) || qualifier.equals(table);
        }
    }

    /** The FROM clause of one PlainSelect. */
    private static final class Scope {
        final PlainSelect select;
        final List<Occurrence> occurrences = new ArrayList<>();

        Scope(PlainSelect select) {
            this.select = select;
        }
    }

    private final Deque<Scope> scopes = new ArrayDeque<>();
    private final List<Occurrence> occurrences = new ArrayList<>();
    private final Set<Object> countStars = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Parameters parameters = new Parameters();
    private Scope root;
    private int scopesOpened;
    /** Valid SQL we do not analyse precisely: every table, every column. */
    private boolean coarse;
    /** Something we do not understand at all: no footprint. */
    private boolean unsure;

    private ReadFootprint() {
    }

    static Footprint of(Select select) {
        if (select instanceof PlainSelect plain
                && ((plain.getIntoTables() != null && !plain.getIntoTables().isEmpty()) || plain.getIntoTempTable() != null)) {
            return null; // SELECT INTO creates data: not a read
        }
        boolean[] writes = {false};
        AstWalker.walk(select, node -> {
            writes[0] |= node instanceof Statement && !(node instanceof Select);
            return !writes[0];
        });
        if (writes[0]) {
            return null; // WITH d AS (DELETE ... RETURNING *) SELECT ...: a write, not a read
        }
        ReadFootprint analysis = new ReadFootprint();
        if (!(select instanceof PlainSelect)) {
            analysis.coarse = true;
        } else {
            AstWalker.walk(select, analysis);
        }
        if (analysis.unsure || (!analysis.coarse && analysis.root == null)) {
            return null;
        }
        if (analysis.coarse) {
            return Footprints.everything(select, false, null);
        }
        return analysis.result();
    }

    private Footprint result() {
        Scope top = root;
        if (top.select.getWhere() != null) {
            boolean trusted = parameters.trusted();
            Map<Occurrence, List<KeyValue>> keys = new LinkedHashMap<>();
            for (Expression conjunct : Footprints.conjuncts(top.select.getWhere())) {
                Footprints.Equality equality = Footprints.equality(conjunct, trusted);
                if (equality == null) {
                    continue;
                }
                Occurrence target = keyTarget(top, equality.column());
                if (target != null) {
                    keys.computeIfAbsent(target, o -> new ArrayList<>()).add(equality.key());
                }
            }
            keys.forEach((occurrence, list) -> occurrence.keys = List.copyOf(list));
        }
        Map<Occurrence, RowIdentity> identities = rowIdentities(top);
        // one footprint per table: columns united, keys those every occurrence has
        Map<String, TableFootprint> merged = new LinkedHashMap<>();
        for (Occurrence occurrence : occurrences) {
            TableFootprint own = new TableFootprint(occurrence.table,
                    occurrence.allColumns ? null : Set.copyOf(occurrence.columns), occurrence.keys, false,
                    identities.get(occurrence));
            merged.merge(occurrence.table, own, Footprints::union);
        }
        return new Footprint(List.copyOf(merged.values()));
    }

    /**
     * The {@link RowIdentity} of each table the top SELECT names once, when its result rows map
     * one to one to that table's rows; empty when they do not or we cannot tell.
     */
    private Map<Occurrence, RowIdentity> rowIdentities(Scope top) {
        PlainSelect select = top.select;
        if (scopesOpened != 1 || select.getGroupBy() != null || select.getHaving() != null
                || select.getDistinct() != null || select.getSelectItems() == null) {
            return Map.of();
        }
        Map<Occurrence, Map<String, Integer>> shown = new LinkedHashMap<>();
        Map<String, Column> byAlias = new LinkedHashMap<>();
        List<SelectItem<?>> items = select.getSelectItems();
        for (int i = 0; i < items.size(); i++) {
            SelectItem<?> item = items.get(i);
            if (item.getExpression() == null || item.getExpression().getClass() != Column.class) {
                return Map.of(); // an expression, aggregate or star: rows are not shown plainly
            }
            Column column = (Column) item.getExpression();
            Occurrence owner = keyTarget(top, column);
            if (owner == null || column.getArrayConstructor() != null) {
                return Map.of();
            }
            shown.computeIfAbsent(owner, o -> new LinkedHashMap<>()).putIfAbsent(Footprints.columnName(column), i);
            if (item.getAlias() != null && item.getAlias().getName() != null) {
                byAlias.put(Footprints.normalize(item.getAlias().getName()), column);
            }
        }
        // every column used outside the select list decides which rows come back, or their order
        Map<Occurrence, Set<String>> selectedBy = new LinkedHashMap<>();
        boolean[] unknown = {false};
        AstWalker.walk(select, node -> {
            if (node instanceof SelectItem<?> || unknown[0]) {
                return false;
            }
            if (node instanceof OrderByElement order && !(order.getExpression() instanceof Column)
                    && !(order.getExpression() instanceof Function)) {
                unknown[0] = true; // ORDER BY 2: a position in the select list
                return false;
            }
            if (node instanceof Column column) {
                String name = Footprints.columnName(column);
                // a bare name may be a select-list alias or a column (engines differ on which wins): both
                Column aliased = Footprints.qualifier(column) == null ? byAlias.get(name) : null;
                if (aliased != null) {
                    selectedBy.computeIfAbsent(keyTarget(top, aliased), o -> new LinkedHashSet<>())
                            .add(Footprints.columnName(aliased));
                }
                Occurrence owner = keyTarget(top, column);
                if (owner != null) {
                    selectedBy.computeIfAbsent(owner, o -> new LinkedHashSet<>()).add(name);
                } else if (aliased != null && Footprints.qualifier(column) == null) {
                    top.occurrences.forEach(o -> selectedBy.computeIfAbsent(o, x -> new LinkedHashSet<>()).add(name));
                } else {
                    unknown[0] = true;
                    return false;
                }
            }
            return true;
        });
        if (unknown[0]) {
            return Map.of();
        }
        Map<Occurrence, RowIdentity> identities = new LinkedHashMap<>();
        shown.forEach((occurrence, columns) -> {
            boolean namedOnce = occurrences.stream().filter(o -> o.table.equals(occurrence.table)).count() == 1;
            if (namedOnce && !occurrence.allColumns) {
                identities.put(occurrence, new RowIdentity(Map.copyOf(columns),
                        Set.copyOf(selectedBy.getOrDefault(occurrence, Set.of()))));
            }
        });
        return identities;
    }

    /** The one occurrence of the top scope a WHERE column names, or null. */
    private static Occurrence keyTarget(Scope top, Column column) {
        String qualifier = Footprints.qualifier(column);
        if (qualifier == null) {
            return top.occurrences.size() == 1 ? top.occurrences.get(0) : null;
        }
        Occurrence found = null;
        for (Occurrence occurrence : top.occurrences) {
            if (occurrence.answersTo(qualifier)) {
                if (found != null) {
                    return null;
                }
                found = occurrence;
            }
        }
        return found;
    }

    @Override
    public boolean enter(Object node) {
        if (coarse || unsure) {
            return false;
        }
        if (node instanceof PlainSelect plain) {
            return openScope(plain);
        }
        if (node instanceof Select select) {
            if (select.getClass() == ParenthesedSelect.class) {
                ParenthesedSelect parenthesed = (ParenthesedSelect) select;
                if (parenthesed.getSelect() instanceof PlainSelect && empty(parenthesed.getWithItemsList())
                        && empty(parenthesed.getOrderByElements()) && parenthesed.getLimit() == null
                        && parenthesed.getOffset() == null && parenthesed.getFetch() == null) {
                    return true; // a subquery in an expression: its PlainSelect opens its own scope
                }
            }
            coarse = true; // UNION..., VALUES, LATERAL, a subquery with its own ORDER BY/LIMIT
            return false;
        }
        if (node instanceof WithItem<?> || node instanceof Pivot || node instanceof UnPivot || node instanceof PivotXml) {
            coarse = true;
            return false;
        }
        if (node instanceof Alias alias && !empty(alias.getAliasColumns())) {
            coarse = true; // FROM items AS i(a, b): column names we cannot map back
            return false;
        }
        if (node instanceof Function function) {
            markCountStar(function);
            return true;
        }
        if (node instanceof AnalyticExpression analytic) {
            // COUNT(*) OVER (...): the window's PARTITION BY/ORDER BY columns are walked as usual
            if ("count".equalsIgnoreCase(analytic.getName()) && analytic.getExpression() != null
                    && analytic.getExpression().getClass() == AllColumns.class) {
                countStars.add(analytic.getExpression());
            }
            return true;
        }
        if (node instanceof AllTableColumns star) {
            List<Occurrence> named = named(star.getTable() == null ? null : Footprints.normalize(star.getTable().getName()));
            if (named.isEmpty()) {
                unsure = true;
                return false;
            }
            named.forEach(o -> o.allColumns = true);
            return true;
        }
        if (node instanceof AllColumns star) {
            if (!countStars.contains(star)) {
                Scope scope = scopes.peek();
                if (scope == null) {
                    unsure = true;
                    return false;
                }
                scope.occurrences.forEach(o -> o.allColumns = true);
            }
            return true;
        }
        if (node instanceof OrderByElement order && namesOutputColumn(order)) {
            return false; // ORDER BY n where n is a select-list alias: that item's columns are already counted
        }
        if (node instanceof Column column) {
            resolve(column);
            return true;
        }
        parameters.see(node);
        return true;
    }

    @Override
    public void exit(Object node) {
        if (node instanceof PlainSelect && !coarse && !unsure) {
            scopes.pop();
        }
    }

    private boolean openScope(PlainSelect plain) {
        if (!empty(plain.getWithItemsList()) || !empty(plain.getLateralViews()) || plain.getOracleHierarchical() != null
                || plain.getPreferringClause() != null || plain.getKsqlWindow() != null) {
            // CONNECT BY reads rows WHERE filters out (a row's LEVEL depends on its ancestors)
            coarse = true;
            return false;
        }
        Scope scope = new Scope(plain);
        if (plain.getFromItem() != null && !addOccurrence(scope, plain.getFromItem())) {
            coarse = true;
            return false;
        }
        boolean natural = false;
        if (plain.getJoins() != null) {
            for (Join join : plain.getJoins()) {
                if (!addOccurrence(scope, join.getFromItem())) {
                    coarse = true;
                    return false;
                }
                natural |= join.isNatural();
            }
        }
        if (natural) {
            // NATURAL JOIN compares the columns the tables have in common: unknown to us
            scope.occurrences.forEach(o -> o.allColumns = true);
        }
        if (root == null) {
            root = scope;
        }
        scopesOpened++;
        scopes.push(scope);
        return true;
    }

    private boolean addOccurrence(Scope scope, FromItem item) {
        if (item == null || item.getClass() != Table.class) {
            return false;
        }
        Table table = (Table) item;
        if (table.getPivot() != null || table.getUnPivot() != null) {
            return false;
        }
        Alias alias = table.getAlias();
        if (alias != null && !empty(alias.getAliasColumns())) {
            return false;
        }
        Occurrence occurrence = new Occurrence(Footprints.tableName(table),
                alias == null || alias.getName() == null ? null : Footprints.normalize(alias.getName()));
        scope.occurrences.add(occurrence);
        occurrences.add(occurrence);
        return true;
    }

    /** Every occurrence visible from the current scope that {@code qualifier} may name (all if null). */
    private List<Occurrence> named(String qualifier) {
        List<Occurrence> found = new ArrayList<>();
        for (Scope scope : scopes) { // innermost first
            for (Occurrence occurrence : scope.occurrences) {
                if (qualifier == null || occurrence.answersTo(qualifier)) {
                    found.add(occurrence);
                }
            }
        }
        return found;
    }

    private void resolve(Column column) {
        if (scopes.isEmpty()) {
            unsure = true;
            return;
        }
        String name = Footprints.columnName(column);
        String qualifier = Footprints.qualifier(column);
        if (qualifier == null) {
            // PostgreSQL whole-row reference: SELECT row_to_json(i) FROM items i reads every column
            named(name).forEach(o -> o.allColumns = true);
        }
        List<Occurrence> candidates = named(qualifier);
        if (qualifier != null) {
            if (candidates.isEmpty()) {
                unsure = true; // qualified by something that is not a table here: we misread the query
                return;
            }
            candidates.forEach(o -> o.columns.add(name));
        } else if (candidates.stream().map(o -> o.table).distinct().count() == 1) {
            // the only table in sight (maybe read twice, e.g. by a subquery): its column
            candidates.forEach(o -> o.columns.add(name));
        } else {
            // unqualified with several tables in sight: any of them may own it
            // (none in sight: a select-list alias or a keyword, no table's column)
            candidates.forEach(o -> o.allColumns = true);
        }
    }

    /**
     * Whether an element of the current SELECT's own ORDER BY (not a window's) is a bare name of a
     * select-list alias, which SQL resolves to that output column before any input column.
     */
    private boolean namesOutputColumn(OrderByElement order) {
        Scope scope = scopes.peek();
        if (scope == null || scope.select.getOrderByElements() == null || scope.select.getSelectItems() == null
                || !(order.getExpression() instanceof Column column) || column.getClass() != Column.class
                || Footprints.qualifier(column) != null || column.getArrayConstructor() != null) {
            return false;
        }
        if (scope.select.getOrderByElements().stream().noneMatch(e -> e == order)) {
            return false;
        }
        String name = Footprints.columnName(column);
        for (SelectItem<?> item : scope.select.getSelectItems()) {
            if (item.getAlias() != null && item.getAlias().getName() != null
                    && name.equals(Footprints.normalize(item.getAlias().getName()))) {
                return true;
            }
        }
        return false;
    }

    /** COUNT(*) reads no column: its star does not mean "every column". */
    private void markCountStar(Function function) {
        if (function.getMultipartName() != null && function.getMultipartName().size() == 1
                && "count".equalsIgnoreCase(function.getName()) && function.getParameters() != null
                && function.getParameters().size() == 1) {
            Object argument = function.getParameters().get(0);
            if (argument != null && argument.getClass() == AllColumns.class) {
                AllColumns star = (AllColumns) argument;
                if (empty(star.getExceptColumns()) && empty(star.getReplaceExpressions())) {
                    countStars.add(star);
                }
            }
        }
    }

    private static boolean empty(java.util.Collection<?> collection) {
        return collection == null || collection.isEmpty();
    }
}
