package org.phalanx.requestmanager.analysis;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Visits every JSqlParser node reachable from a root through the nodes' fields, in declaration
 * order, calling the visitor on the way down and up.
 *
 * <p>Footprint analysis must never miss a column reference, and JSqlParser's own visitors only
 * reach what each visitor method was written to reach (one forgotten clause, and a column goes
 * unseen). Walking the fields reaches every node whatever the syntax, including clauses added in
 * later parser versions. Only classes of {@code net.sf.jsqlparser} (except its {@code parser}
 * package: tokens and the parse tree) and the JDK collections holding them are entered; transient
 * fields (the parse-tree back pointers) are not followed, and a node already on the current path
 * is not entered again, so a stray back pointer cannot loop. A node shared by two parents is
 * visited under each, so both places are seen.
 */
final class AstWalker {

    interface Visitor {
        /** @return whether to walk the node's fields */
        boolean enter(Object node);

        default void exit(Object node) {
        }
    }

    private static final String AST_PREFIX = "net.sf.jsqlparser.";
    private static final String PARSER_PACKAGE = "net.sf.jsqlparser.parser";

    private static final ClassValue<Field[]> FIELDS = new ClassValue<>() {
        @Override
        protected Field[] computeValue(Class<?> type) {
            List<Field> fields = new ArrayList<>();
            for (Class<?> k = type; k != null && isAst(k); k = k.getSuperclass()) {
                for (Field field : k.getDeclaredFields()) {
                    int modifiers = field.getModifiers();
                    if (Modifier.isStatic(modifiers) || Modifier.isTransient(modifiers) || field.isSynthetic()
                            || field.getType().isPrimitive()) {
                        continue;
                    }
                    field.setAccessible(true);
                    fields.add(field);
                }
            }
            return fields.toArray(new Field[0]);
        }
    };

    private final Visitor visitor;
    private final Set<Object> path = Collections.newSetFromMap(new IdentityHashMap<>());

    private AstWalker(Visitor visitor) {
        this.visitor = visitor;
    }

    static void walk(Object root, Visitor visitor) {
        new AstWalker(visitor).visit(root);
    }

    private static boolean isAst(Class<?> type) {
        return type.getName().startsWith(AST_PREFIX) && !type.getPackageName().equals(PARSER_PACKAGE);
    }

    private void visit(Object node) {
        if (node == null) {
            return;
        }
        if (node instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                visit(entry.getKey());
                visit(entry.getValue());
            }
            return;
        }
        Class<?> type = node.getClass();
        if (node instanceof Object[] array) {
            for (Object element : array) {
                visit(element);
            }
            return;
        }
        boolean ast = isAst(type) && !(node instanceof Enum<?>);
        if (!ast && !(node instanceof Collection<?>)) {
            return; // strings, numbers, enums, parse-tree nodes
        }
        if (!path.add(node)) {
            return;
        }
        try {
            if (ast && !visitor.enter(node)) {
                return;
            }
            if (node instanceof Collection<?> collection) {
                for (Object element : collection) {
                    visit(element);
                }
            }
            if (ast) {
                for (Field field : FIELDS.get(type)) {
                    try {
                        visit(field.get(node));
                    } catch (IllegalAccessException e) {
                        throw new IllegalStateException("cannot read " + field, e);
                    }
                }
                visitor.exit(node);
            }
        } finally {
            path.remove(node);
        }
    }
}
