package org.phalanx.protocol;

/** Constants both ends agree on. See docs/protocol.md. */
public final class Protocol {
    /** "PHLX": first four bytes of the first frame a client sends. */
    public static final int MAGIC = 0x50484C58;
    /** Bumped on any incompatible change; the server refuses versions it does not speak. */
    public static final short VERSION = 5;
    /** The oldest version a controller still speaks: a driver of that version is answered as it expects. */
    public static final short OLDEST_VERSION = 3;
    /**
     * From this version OUTCOME is answered with the request's whole result: a write's generated
     * keys, a batch's counts element by element (BATCH_RESULT).
     */
    public static final short OUTCOME_WITH_RESULTS_VERSION = 4;
    /** From this version a parameter may be {@link Untyped} text (a UUID, {@code setObject(x, Types.OTHER)}). */
    public static final short UNTYPED_VERSION = 5;
    public static final int DEFAULT_PORT = 25322;
    /**
     * Vendor code of a HELLO refused (08004) by a controller that does not serve the virtual database
     * now but another of its group may: the driver tries the next controller of its URL.
     */
    public static final int NOT_SERVED_HERE = 1;
    /**
     * Vendor code of the ERROR answering OUTCOME when nothing of the request is in the group's log,
     * nor ever will be: the driver may send it again.
     */
    public static final int REQUEST_NOT_APPLIED = 2;
    /**
     * HELLO property: the driver's random id for this connection. With it, both ends number the
     * requests after HELLO 1, 2, 3...; an auto-commit write or commit is logged with its number, and
     * a driver that lost its controller asks another about it with OUTCOME (docs/protocol.md).
     */
    public static final String CLIENT_SESSION = "clientSession";
    /**
     * HELLO property: the client JVM's time zone id. pgjdbc starts each session in its JVM's zone; a
     * controller serving PostgreSQL backends gives the session that zone when it is not its own.
     */
    public static final String TIME_ZONE = "timeZone";
    /**
     * HELLO property (the URL's): how current a read-only session a group's follower serves reads,
     * {@value #FOLLOWER_READS_CURRENT} or {@code local} (default; docs/distribution.md).
     */
    public static final String FOLLOWER_READS = "followerReads";
    public static final String FOLLOWER_READS_CURRENT = "current";
    /** Default largest frame either side accepts (payload bytes, type byte included). */
    public static final int DEFAULT_MAX_FRAME = 64 * 1024 * 1024;
    /** The largest HELLO a controller reads: before authentication a stranger must not make it allocate more. */
    public static final int MAX_HELLO_FRAME = 64 * 1024;
    /** Rows sent per batch when the client leaves the fetch size at 0. */
    public static final int DEFAULT_FETCH_SIZE = 1000;

    private Protocol() {
    }
}
