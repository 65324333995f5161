package org.phalanx.controller.jmx;

import java.util.Map;
import org.phalanx.requestmanager.distribution.GroupStatus;

/**
 * A distributed virtual database's group as this controller sees it (docs/distribution.md).
 *
 * @param primary      the member serving sessions (empty while there is none)
 * @param epoch        how many times the primary role was taken
 * @param logLeader    the member ordering the group's log (empty during an election)
 * @param members      the members of the log's configuration
 * @param connected    the members this one is connected to
 * @param appliedIndex the group log's last index applied here
 * @param commitIndex  the group log's last index known committed here
 * @param firstIndex   the first index this member's log still holds (above 1 once compacted)
 * @param dumpPosition the recovery-log position of the dump this member's log snapshots carry, or -1
 * @param memberIndexes on the log's leader, each member's last log index (lag = commitIndex minus it);
 *                     empty elsewhere
 * @param logPosition  the last recovery-log position in this member's copy
 * @param backends     this controller's backends and their states
 */
public record GroupDescription(String group, String member, boolean witness, String primary, long epoch,
                               String logLeader, String[] members, String[] connected, long appliedIndex,
                               long commitIndex, long firstIndex, long dumpPosition, Map<String, Long> memberIndexes, long logPosition,
                               Map<String, String> backends) {
    static GroupDescription of(GroupStatus s) {
        return new GroupDescription(s.group(), s.self(), s.witness(), s.primary() == null ? "" : s.primary(), s.epoch(),
                s.raftLeader() == null ? "" : s.raftLeader(), s.members().toArray(String[]::new),
                s.connected().toArray(String[]::new), s.appliedIndex(), s.commitIndex(), s.firstIndex(), s.dumpPosition(), s.memberIndexes(),
                s.logPosition(), s.backends());
    }
}
