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
    SESSION;

    /** Sent to every backend in the total order. */
    public boolean isWrite() {
        return this == WRITE || this == DDL;
    }
}
