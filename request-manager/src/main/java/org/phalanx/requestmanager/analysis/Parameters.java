package org.phalanx.requestmanager.analysis;

import java.util.BitSet;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.operators.relational.JsonOperator;

/**
 * Checks that JSqlParser's parameter numbers are the JDBC ones. The parser numbers each {@code ?}
 * marker it reads, 1-based and in textual order ({@link JdbcParameter#getIndex()}), which is how
 * JDBC numbers the parameters of a prepared statement. We trust the numbers only if they are
 * exactly 1..n, each once, none written explicitly ({@code ?2}), and no {@code ?} was read as an
 * operator (PostgreSQL's JSON {@code ?}, {@code ?|}, {@code ?&}, which a JDBC driver may count
 * as a parameter): otherwise a parameter key could point at the wrong value, and no parameter
 * key is made.
 */
final class Parameters {
    private final BitSet seen = new BitSet();
    private int count;
    private boolean broken;

    /** Feed every node of the statement. */
    void see(Object node) {
        if (node instanceof JdbcParameter parameter) {
            Integer index = parameter.getIndex();
            if (index == null || index < 1 || parameter.isUseFixedIndex() || !"?".equals(parameter.getParameterCharacter())
                    || seen.get(index)) {
                broken = true;
            } else {
                seen.set(index);
            }
            count++;
        } else if (node instanceof JsonOperator operator && operator.getStringExpression() != null
                && operator.getStringExpression().contains("?")) {
            broken = true;
        }
    }

    boolean trusted() {
        return !broken && seen.cardinality() == count && seen.nextClearBit(1) == count + 1;
    }

    /** Whether the parameter numbers of everything under {@code root} can be trusted. */
    static boolean trusted(Object root) {
        Parameters parameters = new Parameters();
        AstWalker.walk(root, node -> {
            parameters.see(node);
            return true;
        });
        return parameters.trusted();
    }
}
