package org.phalanx.requestmanager.distribution;

import java.util.concurrent.CompletableFuture;
import org.phalanx.recoverylog.EntryBytes;
import org.phalanx.recoverylog.LogEntry;
import org.phalanx.recoverylog.OutcomeUnknownException;
import org.phalanx.recoverylog.RecoveryLogException;

/**
 * The recovery log of the primary's request manager: an entry is durable once the group's log
 * committed it (a majority of the controllers hold it) and this controller's copy holds it; every
 * other call is the local copy's (checkpoints, states and purges concern this controller's own
 * backends).
 *
 * <p>An append the group refuses or does not commit in time may still be committed later, so its
 * outcome is unknown: the log is then fenced (every later append fails at once) and the member
 * steps down ({@code onFailure}); the next primary's start-up recovery settles each backend by its
 * own record of applied positions. Entries carry the epoch of this primary's claim, and the group
 * applies none from an epoch that is over, so a deposed primary cannot write after its successor.
 */
final class ReplicatedRecoveryLog extends ForwardingRecoveryLog {
    private final ReplicatedLog group;
    private final LocalLogCopy copy;
    private final long epoch;
    private final Runnable onFailure;
    private long lastHanded;
    private volatile String fence;
    private volatile CompletableFuture<Void> lastAppend = CompletableFuture.completedFuture(null);

    ReplicatedRecoveryLog(ReplicatedLog group, LocalLogCopy copy, long epoch, Runnable onFailure) {
        super(copy.local());
        this.group = group;
        this.copy = copy;
        this.epoch = epoch;
        this.onFailure = onFailure;
        this.lastHanded = copy.local().lastPosition();
    }

    @Override
    public synchronized CompletableFuture<Void> appendAsync(LogEntry entry) {
        if (entry.position() <= lastHanded) {
            throw new IllegalArgumentException("log position " + entry.position() + " is not above " + lastHanded);
        }
        lastHanded = entry.position();
        if (fence != null) {
            return CompletableFuture.failedFuture(new RecoveryLogException(fence));
        }
        CompletableFuture<Void> f = group.append(new GroupEntry.Logged(epoch, EntryBytes.encode(entry)).encode())
                .thenCompose(answer -> answer != null && answer.length == 1 && answer[0] == GroupMember.APPLIED
                        ? copy.durable(entry.position())
                        : CompletableFuture.failedFuture(new RecoveryLogException("another controller became the"
                                + " primary of group " + group.config().groupName())));
        f = f.handle((v, e) -> {
            if (e == null) {
                return null;
            }
            fence("the group's log did not commit log position " + entry.position() + " (" + rootMessage(e)
                    + "): its outcome is unknown, and this controller no longer serves writes");
            throw new OutcomeUnknownException(fence, e);
        });
        lastAppend = f;
        return f;
    }

    private void fence(String why) {
        boolean first;
        synchronized (this) {
            first = fence == null;
            if (first) {
                fence = why;
            }
        }
        if (first) {
            onFailure.run();
        }
    }

    private static String rootMessage(Throwable e) {
        while (e.getCause() != null && e.getCause() != e) {
            e = e.getCause();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    @Override
    public boolean settle() {
        lastAppend.handle((v, e) -> null).join();
        return fence == null && copy.settle();
    }

    /** Whether an append failed: this primary no longer knows what the group's log holds. */
    boolean fenced() {
        return fence != null;
    }

    /** The request manager stops: appends end here; the copy stays open (the group member owns it). */
    @Override
    public void close() {
        synchronized (this) {
            if (fence == null) {
                fence = "this controller no longer serves the virtual database";
            }
        }
        lastAppend.handle((v, e) -> null).join();
    }
}
