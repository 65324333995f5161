package org.phalanx.requestmanager.distribution;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.PhysicalAddress;
import org.jgroups.View;
import org.jgroups.ViewId;
import org.jgroups.annotations.Property;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.pbcast.GMS;

/**
 * JGroups' MERGE3, which also lets go of a member of this view that reports, for longer than
 * {@code patience}, a view of its own: a member that excluded us.
 *
 * <p>Seen with two followers frozen together (SIGSTOP) while their coordinator went on: it excluded
 * them and installed a view of its own; resumed, they still held the old view, which names it as its
 * coordinator. MERGE3 then found two views with the same coordinator and never merged them, and the
 * followers kept the member in their view — failure detection suspected it (it no longer sent them
 * heartbeats) but VERIFY_SUSPECT2 found it alive each time — for two minutes in one run: no view
 * change, so no election, no new primary, no writes. Suspecting it to GMS directly (above
 * VERIFY_SUSPECT2: it is alive, just no longer in our group) installs a view without it, and MERGE3
 * merges the two views, which now have different coordinators. Named in {@code raft-stack.xml} in
 * place of {@code MERGE3}.
 *
 * <p>GMS drops a suspicion that arrives while a merge is in progress. Usually that merge joins the
 * views anyway; in one CI run it did not, and the member that had been cut off kept its old view for
 * good (the others no longer reported theirs to it). A suspicion therefore stands until the view
 * changes: it is given to GMS again every {@code patience / 3} ms until then.
 *
 * <p>MERGE3 stops sending INFO and checking views at a temporary view (GMS sends one down just
 * before it installs a view it casts, a merge view too) and starts again only at the next view. GMS
 * discards a view whose id is not above its own, or that does not name this member, so a merge view
 * can stop MERGE3 here for good: the member then never looks for other views again, and when it is
 * the merge leader (the lowest address among the coordinators) the others wait for it for ever — the
 * partition is never healed. Both tasks are started again when no view has followed a temporary one
 * for {@code restart_after} ms.
 */
public class ExcludedMemberMerge extends MERGE3 {
    /** Its protocol id (MERGE3's headers carry it), one no JGroups or jgroups-raft protocol uses. */
    private static final short ID = 1623;

    static {
        ClassConfigurator.addProtocol(ID, ExcludedMemberMerge.class);
    }

    @Property(description = "How long a member of this view may report another view before it is suspected (ms)")
    protected long patience = 6_000;

    @Property(description = "How long MERGE3 may stay stopped by a temporary view that no view followed (ms)")
    protected long restart_after = 10_000;

    /** Since when each member of this view has reported another view (nanoTime). */
    private final Map<Address, Long> elsewhereSince = new ConcurrentHashMap<>();
    /** The members suspected in this view: suspected again until the view changes. */
    private final Map<Address, ViewId> suspected = new ConcurrentHashMap<>();
    private Future<?> repeater;
    /** Since when a temporary view has stopped MERGE3's tasks with no view after it (nanoTime; 0: none has). */
    private volatile long stoppedSince;

    @Override
    public void start() throws Exception {
        super.start();
        long every = Math.max(500, Math.min(patience, restart_after) / 3);
        repeater = timer.scheduleWithFixedDelay(() -> {
            suspectAgain();
            restartIfNoViewFollowed();
        }, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        if (repeater != null) {
            repeater.cancel(false);
        }
        super.stop();
    }

    @Override
    protected void addInfo(Address sender, ViewId viewId, String logicalName, PhysicalAddress physical) {
        super.addInfo(sender, viewId, logicalName, physical);
        View current = view;
        if (current == null || viewId == null || sender.equals(local_addr) || !current.containsMember(sender)) {
            return;
        }
        if (viewId.equals(current.getViewId())) {
            elsewhereSince.remove(sender);
            return;
        }
        long now = System.nanoTime();
        long since = elsewhereSince.computeIfAbsent(sender, s -> now);
        if (now - since >= TimeUnit.MILLISECONDS.toNanos(patience)) {
            elsewhereSince.remove(sender);
            log.info("%s: %s, a member of view %s, has reported view %s for %d ms: suspected, so that the two"
                    + " views merge", local_addr, sender, current.getViewId(), viewId, patience);
            suspected.put(sender, current.getViewId());
            suspect(sender);
        }
    }

    /** The suspicions of this view that GMS has not acted on yet (dropped during a merge), once more. */
    private void suspectAgain() {
        View current = view;
        suspected.forEach((member, in) -> {
            if (current == null || !in.equals(current.getViewId()) || !current.containsMember(member)) {
                suspected.remove(member, in);
            } else {
                log.info("%s: %s is still in view %s: suspected again", local_addr, member, in);
                suspect(member);
            }
        });
    }

    /** MERGE3's INFO sender and view checker, started again if a temporary view stopped them long ago. */
    private void restartIfNoViewFollowed() {
        long since = stoppedSince;
        if (since != 0 && view != null && System.nanoTime() - since >= TimeUnit.MILLISECONDS.toNanos(restart_after)) {
            stoppedSince = 0;
            log.warn("%s: no view was installed after a temporary view %d ms ago (GMS discarded it); view %s kept,"
                    + " and the search for other views started again", local_addr, restart_after, view.getViewId());
            startInfoSender();
            startViewConsistencyChecker();
        }
    }

    private void suspect(Address member) {
        GMS gms = stack.findProtocol(GMS.class);
        if (gms != null) {
            gms.up(new Event(Event.SUSPECT, List.of(member)));
        }
    }

    @Override
    public Object down(Event evt) {
        if (evt.getType() == Event.VIEW_CHANGE) {
            elsewhereSince.clear(); // a new view: every member reports it afresh
            suspected.clear();
            stoppedSince = 0; // MERGE3 starts its tasks again
        } else if (evt.getType() == Event.TMP_VIEW) {
            stoppedSince = System.nanoTime(); // MERGE3 stops its tasks until the next view
        }
        return super.down(evt);
    }
}
