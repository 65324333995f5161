package org.phalanx.requestmanager.session;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.phalanx.engine.SqlState;
import org.phalanx.requestmanager.api.Session;
import org.phalanx.requestmanager.pipeline.Pipeline;
import org.phalanx.requestmanager.read.ReadStage;
import org.phalanx.requestmanager.write.ChosenKeys;
import org.phalanx.requestmanager.write.TransactionControl;
import org.phalanx.requestmanager.write.WriteStage;

/** The client sessions of one virtual database, and the stages they share. */
public final class Sessions {
    private final Pipeline p;
    private final ReadStage reads;
    private final WriteStage writes;
    private final TransactionControl transactions;
    private final Set<VirtualSession> open = ConcurrentHashMap.newKeySet();
    private final AdvisoryLocks advisoryLocks = new AdvisoryLocks();
    private final VirtualCatalog catalog;
    private final WritingFunctions writingFunctions = new WritingFunctions();
    private final UnrepeatableWrites unrepeatableWrites = new UnrepeatableWrites();
    private final int defaultIsolation;
    private volatile boolean closed;

    /** @param defaultIsolation the level of a session that asks for none */
    public Sessions(Pipeline p, ChosenKeys keys, int defaultIsolation) {
        this.p = p;
        this.defaultIsolation = defaultIsolation;
        this.transactions = new TransactionControl(p);
        this.reads = new ReadStage(p, transactions);
        this.writes = new WriteStage(p, keys, transactions);
        this.catalog = new VirtualCatalog(p.name());
    }

    public Session open(String virtualUser) throws SQLException {
        if (closed) {
            throw new SQLException("virtual database " + p.name() + " is shutting down",
                    SqlState.CANNOT_CONNECT_NOW.code());
        }
        VirtualSession s = new VirtualSession(p, reads, writes, transactions, this, advisoryLocks, virtualUser,
                defaultIsolation);
        open.add(s);
        return s;
    }

    VirtualCatalog catalog() {
        return catalog;
    }

    WritingFunctions writingFunctions() {
        return writingFunctions;
    }

    UnrepeatableWrites unrepeatableWrites() {
        return unrepeatableWrites;
    }

    public int defaultIsolation() {
        return defaultIsolation;
    }

    void closed(VirtualSession s) {
        open.remove(s);
    }

    /** Client sessions open now. */
    public int count() {
        return open.size();
    }

    /** Sessions with a transaction open on some backend. */
    public int openTransactions() {
        int n = 0;
        for (VirtualSession s : open) {
            if (s.hasOpenTransaction()) {
                n++;
            }
        }
        return n;
    }

    /** Schema changes not yet run on every backend (DDL of any table, and the tables of the others). */
    public int schemaChangesSettling() {
        return writes.schemaChangesSettling();
    }

    /** Refuses new sessions and closes the open ones (rolling back their transactions). */
    public void closeAll() {
        closed = true;
        for (VirtualSession s : List.copyOf(open)) {
            s.close();
        }
    }
}
