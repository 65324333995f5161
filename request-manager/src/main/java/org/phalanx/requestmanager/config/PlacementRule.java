package org.phalanx.requestmanager.config;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Where CREATE TABLE puts a new table under partial replication (C-JDBC's CreateTable
 * policies). Rules are tried in order; the first whose pattern matches the table name wins.
 *
 * @param pattern   regular expression matched against the whole lower-case table name; null
 *                  for the default rule, which matches every name
 * @param policy    how the backends are chosen
 * @param backends  the backends named ({@link Policy#BACKENDS}), or the pool to choose from
 *                  for ROUND_ROBIN/RANDOM (empty: every backend)
 * @param count     how many backends ROUND_ROBIN/RANDOM choose
 * @param location  where the rule is written (file:line:col), for error messages
 */
public record PlacementRule(Pattern pattern, Policy policy, List<String> backends, int count, String location) {

    public enum Policy {
        /** Exactly the backends listed. */
        BACKENDS,
        /** The next {@code count} backends in turn. */
        ROUND_ROBIN,
        /** {@code count} backends picked at random. */
        RANDOM,
        /** Every backend. */
        ALL
    }

    public boolean matches(String table) {
        return pattern == null || pattern.matcher(table).matches();
    }
}
