package org.phalanx.driver;

/**
 * How the backends' engine treats the case of unquoted and quoted identifiers, as its own JDBC
 * driver reports it in {@link java.sql.DatabaseMetaData}: tools decide from it how to write the
 * names of the tables they create and look up (Liquibase, on MariaDB told that identifiers are not
 * case-sensitive, wrote its history table in lower case where MariaDB alone has it in upper case).
 *
 * @param supportsMixed        {@code supportsMixedCaseIdentifiers}
 * @param storesLower          {@code storesLowerCaseIdentifiers}
 * @param storesMixed          {@code storesMixedCaseIdentifiers}
 * @param supportsMixedQuoted  {@code supportsMixedCaseQuotedIdentifiers}
 * @param storesMixedQuoted    {@code storesMixedCaseQuotedIdentifiers}
 * @param quote                {@code getIdentifierQuoteString}: MariaDB's is the backtick (without
 *                             {@code ANSI_QUOTES} it reads {@code "id"} as a string)
 */
record IdentifierCase(boolean supportsMixed, boolean storesLower, boolean storesMixed, boolean supportsMixedQuoted,
                      boolean storesMixedQuoted, String quote) {
    /** pgjdbc: unquoted names fold to lower case, quoted ones keep theirs. */
    private static final IdentifierCase POSTGRESQL = new IdentifierCase(false, true, false, true, false, "\"");
    /**
     * MariaDB Connector/J with {@code lower_case_table_names=0}, the default on Linux: table names
     * are case-sensitive, quoted or not. (Its other settings are not asked for.)
     */
    private static final IdentifierCase MARIADB = new IdentifierCase(true, false, false, true, false, "`");
    /** sqlite-jdbc: names are stored as written; it says mixed case is supported, quoted or not. */
    private static final IdentifierCase SQLITE = new IdentifierCase(true, false, true, false, false, "\"");
    /** Another engine or a mix: stored as written, quoted names case-sensitive. */
    private static final IdentifierCase OTHER = new IdentifierCase(false, false, true, true, false, "\"");

    /** Whether the controller names MariaDB (or MySQL) as its backends' product. */
    static boolean isMariaDb(String productName) {
        return of(productName) == MARIADB;
    }

    /** For the database product the controller names (the backends' own). */
    static IdentifierCase of(String productName) {
        String p = productName == null ? "" : productName.toLowerCase(java.util.Locale.ROOT);
        if (p.contains("postgresql")) {
            return POSTGRESQL;
        }
        if (p.contains("mariadb") || p.contains("mysql")) {
            return MARIADB;
        }
        return p.contains("sqlite") ? SQLITE : OTHER;
    }
}
