package org.phalanx.requestmanager.distribution;

import java.util.List;
import java.util.Map;

/**
 * A distributed virtual database's group as one member sees it.
 *
 * @param primary      the member serving sessions, or null while there is none
 * @param epoch        how many times the primary role was taken
 * @param raftLeader   the member ordering the log (not necessarily the primary), or null during an election
 * @param members      the members of the log's configuration
 * @param connected    the members this one is connected to
 * @param appliedIndex the group log's last index applied here
 * @param commitIndex  the group log's last index known committed here
 * @param firstIndex   the first index this member's log still holds (above 1 once compacted)
 * @param dumpPosition the recovery-log position of the dump this member's snapshots carry, or -1
 * @param memberIndexes on the log's leader, each member's last log index (its lag: the commit index
 *                     minus it); empty on the other members
 * @param logPosition  the last recovery-log position in this member's copy
 * @param backends     this member's backends and their states
 */
public record GroupStatus(String group, String self, boolean witness, String primary, long epoch, String raftLeader,
                          List<String> members, List<String> connected, long appliedIndex, long commitIndex,
                          long firstIndex, long dumpPosition, Map<String, Long> memberIndexes, long logPosition, Map<String, String> backends) {
}
