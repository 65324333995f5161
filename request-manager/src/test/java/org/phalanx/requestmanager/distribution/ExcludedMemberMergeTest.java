package org.phalanx.requestmanager.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jgroups.JChannel;
import org.jgroups.PhysicalAddress;
import org.jgroups.View;
import org.jgroups.ViewId;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.stack.IpAddress;
import org.jgroups.util.Util;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.phalanx.testkit.process.Ports;

/**
 * A member of the view that reports a view of its own is suspected, and the suspicion stands until the
 * view changes; the search for other views does not stop for good.
 */
class ExcludedMemberMergeTest {
    private JChannel a;
    private JChannel b;

    @AfterEach
    void close() {
        Util.close(b, a);
    }

    @Test
    void aSuspicionGmsDroppedDuringAMergeIsGivenAgainUntilTheViewChanges() throws Exception {
        int portA = Ports.free();
        int portB = Ports.free();
        List<PhysicalAddress> hosts = List.of(new IpAddress("127.0.0.1", portA), new IpAddress("127.0.0.1", portB));
        a = channel("a", portA, hosts).connect("excluded-member-merge");
        b = channel("b", portB, hosts).connect("excluded-member-merge");
        awaitViewSize(a, 2);

        // b reports a view that is not a's, for longer than the patience (0 here), while a's GMS is busy
        // with a merge: GMS drops the suspicion
        GMS gms = a.getProtocolStack().findProtocol(GMS.class);
        ExcludedMemberMerge merge = a.getProtocolStack().findProtocol(ExcludedMemberMerge.class);
        gms.getViewHandler().suspend();
        ViewId elsewhere = new ViewId(b.getAddress(), 99);
        merge.addInfo(b.getAddress(), elsewhere, "b", null);
        merge.addInfo(b.getAddress(), elsewhere, "b", null);
        Thread.sleep(300);
        assertEquals(2, a.getView().size(), "GMS dropped the suspicion: a merge was in progress");

        // the merge over, nobody else suspects b (no failure detection in this stack): only the repeated
        // suspicion takes it out of a's view
        gms.getViewHandler().resume();
        awaitViewSize(a, 1);
    }

    /**
     * GMS sends a temporary view down before it installs a view it casts (a merge view too), and MERGE3
     * stops looking for other views until the next view; a view GMS then discards (its id not above
     * the current one's) left MERGE3 stopped for good, and a partition whose merge leader this member
     * was never healed. The search starts again after restart_after.
     */
    @Test
    void aTemporaryViewThatNoViewFollowsDoesNotStopTheSearchForOtherViewsForGood() throws Exception {
        int port = Ports.free();
        a = channel("a", port, List.of(new IpAddress("127.0.0.1", port))).connect("excluded-member-merge");
        ExcludedMemberMerge merge = a.getProtocolStack().findProtocol(ExcludedMemberMerge.class);
        assertTrue(merge.isInfoSenderRunning() && merge.isViewConsistencyCheckerRunning());

        GMS gms = a.getProtocolStack().findProtocol(GMS.class);
        View current = a.getView();
        gms.castViewChangeAndSendJoinRsps(new View(current.getViewId(), current.getMembers()), null,
                current.getMembers(), null, null); // not newer than a's view: discarded after the temporary view
        assertEquals(current, a.getView());
        assertFalse(merge.isInfoSenderRunning() || merge.isViewConsistencyCheckerRunning(), "stopped by the temporary view");

        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!(merge.isInfoSenderRunning() && merge.isViewConsistencyCheckerRunning()) && System.nanoTime() < end) {
            Thread.sleep(50);
        }
        assertTrue(merge.isInfoSenderRunning() && merge.isViewConsistencyCheckerRunning(), "started again");
    }

    private static void awaitViewSize(JChannel channel, int size) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (channel.getView().size() != size && System.nanoTime() < end) {
            Thread.sleep(50);
        }
        assertEquals(size, channel.getView().size(), channel.getName() + "'s view: " + channel.getView());
    }

    private static JChannel channel(String name, int port, List<PhysicalAddress> hosts) throws Exception {
        TCP tcp = new TCP();
        tcp.setBindAddress(InetAddress.getLoopbackAddress());
        tcp.setBindPort(port);
        tcp.setPortRange(0);
        tcp.disableDiagnostics();
        TCPPING ping = new TCPPING();
        ping.setInitialHosts2(List.copyOf(hosts));
        ping.setPortRange(0);
        ExcludedMemberMerge merge = new ExcludedMemberMerge();
        merge.patience = 0;
        merge.restart_after = 1_000;
        // MERGE3's own INFO rounds are slow here: the test feeds the reports itself
        merge.setMinInterval(60_000).setMaxInterval(120_000);
        GMS gms = new GMS();
        gms.setJoinTimeout(1_000);
        return new JChannel(tcp, ping, merge, new NAKACK2().useMcastXmit(false), new UNICAST3(), new STABLE(), gms)
                .name(name);
    }
}
