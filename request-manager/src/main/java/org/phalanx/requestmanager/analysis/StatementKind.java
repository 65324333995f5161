package org.phalanx.requestmanager.analysis;

/** What a statement does, as far as scheduling is concerned. */
public enum StatementKind {
    /** Reads only: one backend answers. */
    READ,
    /** Changes data (also SELECT ... FOR UPDATE and anything we cannot prove read-only). */
    WRITE,
    /** Changes the schema. */
    DDL,
    BEGIN,
    /**
     * BEGIN IMMEDIATE / EXCLUSIVE (SQLite's way to read then write safely): the transaction
     * takes the whole-database lock and joins the backends at once.
     */
    BEGIN_IMMEDIATE,
    COMMIT,
    ROLLBACK,
    /** SAVEPOINT, ROLLBACK TO SAVEPOINT, RELEASE SAVEPOINT: run on every branch of the transaction. */
    SAVEPOINT,
    /** Sets the session's own parameters ({@link SessionCommand}): no other session is concerned. */
    SESSION,
    /**
     * Several statements in one text that a single kind cannot carry: one that demarcates a
     * transaction or sets the session's parameters beside others ({@code BEGIN; INSERT ...; COMMIT}).
     * Refused ({@code 0A000}): run as a read it would reach one backend, run as a write it would
     * end or open transactions on the backends behind the controller's back.
     */
    SEVERAL_WITH_CONTROL;

    /** Sent to every backend in the total order. */
    public boolean isWrite() {
        return this == WRITE || this == DDL;
    }
}
