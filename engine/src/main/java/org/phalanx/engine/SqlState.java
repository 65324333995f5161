package org.phalanx.engine;

/**
 * The SQLStates Phalanx raises or tells apart, named as in the SQL standard and PostgreSQL's error codes
 * appendix (the {@code HY} codes are the SQL/CLI ones JDBC drivers commonly use). Applications
 * and tests see the {@link #code()}: a constant's code never changes.
 */
public enum SqlState {
    // class 07: dynamic SQL error
    DYNAMIC_SQL_ERROR("07000"),
    USING_CLAUSE_DOES_NOT_MATCH_DYNAMIC_PARAMETERS("07001"),
    // class 08: connection exception
    CONNECTION_EXCEPTION("08000"),
    SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION("08001"),
    CONNECTION_DOES_NOT_EXIST("08003"),
    SQLSERVER_REJECTED_ESTABLISHMENT_OF_SQLCONNECTION("08004"),
    CONNECTION_FAILURE("08006"),
    /** The connection was lost during a commit (or a write in auto-commit mode): whether it happened is not known. */
    TRANSACTION_RESOLUTION_UNKNOWN("08007"),
    // class 0A
    FEATURE_NOT_SUPPORTED("0A000"),
    // class 22: data exception
    DATA_EXCEPTION("22000"),
    INVALID_DATETIME_FORMAT("22007"),
    INVALID_PARAMETER_VALUE("22023"),
    // class 23: integrity constraint violation
    INTEGRITY_CONSTRAINT_VIOLATION("23000"),
    NOT_NULL_VIOLATION("23502"),
    FOREIGN_KEY_VIOLATION("23503"),
    UNIQUE_VIOLATION("23505"),
    CHECK_VIOLATION("23514"),
    // classes 24, 25: cursor and transaction state
    INVALID_CURSOR_STATE("24000"),
    ACTIVE_SQL_TRANSACTION("25001"),
    READ_ONLY_SQL_TRANSACTION("25006"),
    IN_FAILED_SQL_TRANSACTION("25P02"),
    NO_ACTIVE_SQL_TRANSACTION("25P01"),
    // class 28
    INVALID_AUTHORIZATION_SPECIFICATION("28000"),
    // class 3D
    INVALID_CATALOG_NAME("3D000"),
    // class 40: transaction rollback
    TRANSACTION_ROLLBACK("40000"),
    SERIALIZATION_FAILURE("40001"),
    DEADLOCK_DETECTED("40P01"),
    // class 42: syntax error or access rule violation
    SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION("42000"),
    UNDEFINED_TABLE("42P01"),
    UNDEFINED_OBJECT("42704"),
    DUPLICATE_OBJECT("42710"),
    // class 53: insufficient resources (the recovery log's disk is full)
    DISK_FULL("53100"),
    /** The controller serves as many connections as it is allowed (PostgreSQL's too_many_connections). */
    TOO_MANY_CONNECTIONS("53300"),
    // class 54, 55, 57, 58: limits, prerequisite state, operator intervention, system error
    PROGRAM_LIMIT_EXCEEDED("54000"),
    OBJECT_NOT_IN_PREREQUISITE_STATE("55000"),
    OBJECT_IN_USE("55006"),
    LOCK_NOT_AVAILABLE("55P03"),
    QUERY_CANCELED("57014"),
    CANNOT_CONNECT_NOW("57P03"),
    IO_ERROR("58030"),
    // class HY: SQL/CLI
    GENERAL_ERROR("HY000"),
    OPERATION_CANCELED("HY008"),
    TIMEOUT_EXPIRED("HYT00"),
    CONNECTION_TIMEOUT_EXPIRED("HYT01"),
    // class XX
    INTERNAL_ERROR("XX000");

    private final String code;

    SqlState(String code) {
        this.code = code;
    }

    /** The five-character SQLState, as {@link java.sql.SQLException#getSQLState()} reports it. */
    public String code() {
        return code;
    }

    /** Whether {@code sqlState} is this code exactly (null is no code). */
    public boolean is(String sqlState) {
        return code.equals(sqlState);
    }

    /** Whether {@code sqlState} is in this code's class, its first two characters (08006 is in 08000's). */
    public boolean isClassOf(String sqlState) {
        return sqlState != null && sqlState.startsWith(code.substring(0, 2));
    }
}
