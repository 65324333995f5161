package org.phalanx.requestmanager.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.phalanx.engine.Engine;

/**
 * A statement rewriting rule from the configuration: SQL sent to the backends it targets is
 * rewritten just before it runs there (the recovery log keeps the application's text, and replay
 * rewrites again).
 *
 * @param pattern     a regular expression, or with {@code exact} the whole statement text
 * @param replacement the replacement ({@code $1}... refer to groups of a regular expression)
 * @param exact       whether the statement must equal {@code pattern} (then it is replaced whole)
 * @param engine      only backends of this engine, or null
 * @param backend     only the backend of this name, or null
 */
public record RewriteRule(Pattern pattern, String replacement, boolean exact, Engine engine, String backend) {

    public static RewriteRule regex(String regex, String replacement, Engine engine, String backend) {
        return new RewriteRule(Pattern.compile(regex), replacement, false, engine, backend);
    }

    public static RewriteRule exact(String statement, String replacement, Engine engine, String backend) {
        return new RewriteRule(Pattern.compile(Pattern.quote(statement)), replacement, true, engine, backend);
    }

    /** Whether the rule targets this backend. */
    public boolean appliesTo(String backendName, Engine backendEngine) {
        return (engine == null || engine == backendEngine) && (backend == null || backend.equals(backendName));
    }

    /** The statement rewritten, or the same string when the rule does not match. */
    public String apply(String sql) {
        if (exact) {
            return pattern.matcher(sql.strip()).matches() ? replacement : sql;
        }
        Matcher m = pattern.matcher(sql);
        return m.find() ? m.replaceAll(replacement) : sql;
    }
}
