package org.phalanx.requestmanager.session;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Types;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.analysis.SqlLexer;
import org.phalanx.requestmanager.api.Request;

/**
 * PostgreSQL's {@code SELECT set_config(name, value, is_local)} (how applications set a tenant for
 * row-level security): a session parameter set on whichever pooled backend connection ran it would
 * stay there for the next client that takes it, and this session's next statement would run
 * elsewhere. The call alone, with literals or parameters, is run as {@code SET [LOCAL] name =
 * 'value'} ({@link SessionParameters}: the session's own, on every connection it uses) and answers
 * the value; any other use of {@code set_config} is refused ({@code 0A000}).
 *
 * @param name  the parameter's name ({@code app.tenant_id})
 * @param value its new value
 * @param local whether it lasts until the transaction ends ({@code is_local} true)
 */
record SetConfigCall(String name, String value, boolean local) {
    private static final Pattern CALL = Pattern.compile(
            "(?is)\\s*select\\s+set_config\\s*\\(([^()]*)\\)\\s*(?:as\\s+\\w+)?[\\s;]*");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");
    private static final String IDENTIFIER = "(?:\"[^\"]+\"|[A-Za-z_][A-Za-z0-9_$]*)";
    private static final Pattern IDENTIFIER_LIST = Pattern.compile("\\s*" + IDENTIFIER + "(?:\\s*,\\s*" + IDENTIFIER + ")*\\s*");
    private static final Set<String> FALSE = Set.of("false", "f", "off", "no", "0");
    private static final Set<String> TRUE = Set.of("true", "t", "on", "yes", "1");

    /** Whether the text may call set_config: a scan without allocation, for every statement. */
    static boolean mentioned(String sql) {
        return SqlLexer.containsIgnoreCase(sql, "set_config");
    }

    /** The call in {@code sql} (which {@link #mentioned} it); refused when it calls set_config otherwise. */
    static SetConfigCall parse(String sql, List<Object> params) throws SQLException {
        Matcher m = CALL.matcher(sql);
        List<String> args = m.matches() ? SelectedCall.arguments(m.group(1), params) : null;
        if (args == null || args.size() != 3 || !NAME.matcher(args.get(0)).matches()
                || !FALSE.contains(args.get(2).toLowerCase(Locale.ROOT)) && !TRUE.contains(args.get(2).toLowerCase(Locale.ROOT))) {
            throw new SQLFeatureNotSupportedException("set_config() is supported alone, as SELECT set_config(name, value,"
                    + " is_local) with literals or parameters (Phalanx then keeps the setting for this session, as SET):"
                    + " elsewhere it would change a pooled backend connection other clients use",
                    SqlState.FEATURE_NOT_SUPPORTED.code());
        }
        return new SetConfigCall(args.get(0), args.get(1), TRUE.contains(args.get(2).toLowerCase(Locale.ROOT)));
    }

    /**
     * The SET statement that does what the call does. The value is a literal, except a search path
     * of identifiers ({@code "app", public}, as Flyway sets it): quoted whole, it would be one schema
     * named by the whole text.
     */
    Request asSet() {
        boolean identifiers = name.equalsIgnoreCase("search_path") && IDENTIFIER_LIST.matcher(value).matches();
        return Request.of("SET " + (local ? "LOCAL " : "") + name + " = "
                + (identifiers ? value : "'" + value.replace("'", "''") + "'"));
    }

    /** What the call answers: the value set. */
    org.phalanx.requestmanager.api.Result answer() throws SQLException {
        return SelectedCall.row("set_config", Types.VARCHAR, "text", value);
    }
}
