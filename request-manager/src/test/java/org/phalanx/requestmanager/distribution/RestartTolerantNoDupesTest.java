package org.phalanx.requestmanager.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jgroups.Address;
import org.jgroups.EmptyMessage;
import org.jgroups.Event;
import org.jgroups.Message;
import org.jgroups.View;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.JoinRsp;
import org.jgroups.protocols.raft.RAFT;
import org.jgroups.stack.Protocol;
import org.jgroups.util.ExtendedUUID;
import org.jgroups.util.Util;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The coordinator's handling of joins whose raft id is already in the view (a member restarted at once). */
class RestartTolerantNoDupesTest {
    private static final short GMS_ID = ClassConfigurator.getProtocolId(GMS.class);

    private final Address c1 = member("c1");
    private final Address c2 = member("c2");
    private final Address c3 = member("c3");
    private final List<Message> passedUp = new ArrayList<>();
    private final List<Message> sentDown = new ArrayList<>();
    private final RestartTolerantNoDupes noDupes = new RestartTolerantNoDupes();

    @BeforeEach
    void stack() {
        noDupes.setUpProtocol(new Protocol() {
            @Override
            public Object up(Message msg) {
                passedUp.add(msg);
                return null;
            }
        });
        noDupes.setDownProtocol(new Protocol() {
            @Override
            public Object down(Message msg) {
                sentDown.add(msg);
                return null;
            }

            @Override
            public Object down(Event evt) {
                return null;
            }
        });
        noDupes.down(new Event(Event.VIEW_CHANGE, View.create(c1, 3, c1, c2, c3)));
    }

    @Test
    void aJoinOfANewRaftIdPassesUp() {
        noDupes.up(join(member("c4")));
        assertEquals(1, passedUp.size());
        assertTrue(sentDown.isEmpty());
    }

    @Test
    void aRestartedMemberIsIgnoredWhileItsOldIncarnationIsInTheViewThenJoins() {
        Address restarted = member("c3");
        noDupes.up(join(restarted));
        noDupes.up(join(restarted));
        assertTrue(passedUp.isEmpty(), "a join while the view holds c3 goes no further");
        assertTrue(sentDown.isEmpty(), "nor is it rejected: the joiner asks again");

        noDupes.down(new Event(Event.VIEW_CHANGE, View.create(c1, 4, c1, c2))); // the dead c3 excluded
        noDupes.up(join(restarted));
        assertEquals(1, passedUp.size());
        assertTrue(sentDown.isEmpty());
    }

    @Test
    void aSecondLiveMemberWithTheSameRaftIdIsRejectedOnceTheGracePeriodIsOver() throws Exception {
        noDupes.grace = 0;
        noDupes.up(join(member("c2")));
        assertTrue(passedUp.isEmpty());
        assertEquals(1, sentDown.size());
        Message rejection = sentDown.get(0);
        JoinRsp rsp = Util.streamableFromBuffer(JoinRsp::new, rejection.getArray(), rejection.getOffset(),
                rejection.getLength());
        assertTrue(rsp.getFailReason().contains("duplicate members"), rsp.getFailReason());
    }

    private static Address member(String raftId) {
        return ExtendedUUID.randomUUID(raftId).put(RAFT.raft_id_key, Util.stringToBytes(raftId));
    }

    private Message join(Address joiner) {
        return new EmptyMessage(c1).setSrc(joiner).putHeader(GMS_ID, new GMS.GmsHeader(GMS.GmsHeader.JOIN_REQ, joiner));
    }
}
