package org.phalanx.requestmanager.distribution;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The group of controllers hosting one distributed virtual database: its name, the members (each
 * with its raft id and the address its log listens on), which of them this controller is, and
 * where this controller keeps its copy of the log.
 *
 * @param bindAddress the address this controller's log listens on (explicit: never "any")
 */
public record GroupConfig(String groupName, String self, List<Member> members, String bindAddress, Path logDir,
                          Tls tls) {
    /**
     * The group's key store: members speak TLS to each other and admit only a peer whose
     * certificate it trusts (mutual TLS), so the log's traffic is private and a stranger cannot join.
     * Every member is given the same one (or one holding its own key and the others' certificates).
     */
    public record Tls(Path keyStore, String password, String type) {
    }

    /** A group whose members talk in plain TCP. */
    public GroupConfig(String groupName, String self, List<Member> members, String bindAddress, Path logDir) {
        this(groupName, self, members, bindAddress, logDir, null);
    }

    /**
     * A member of the group: its raft id, the host and port its log listens on, and whether it is
     * a witness (it holds no backends: it only votes, so two data controllers survive losing one).
     */
    public record Member(String raftId, String host, int port, boolean witness) {
        public Member(String raftId, String host, int port) {
            this(raftId, host, port, false);
        }

        String address() {
            return host + "[" + port + "]";
        }
    }

    public GroupConfig {
        members = List.copyOf(members);
        Set<String> ids = new LinkedHashSet<>();
        for (Member m : members) {
            if (!ids.add(m.raftId())) {
                throw new IllegalArgumentException("member " + m.raftId() + " is listed twice in group " + groupName);
            }
        }
        if (!ids.contains(self)) {
            throw new IllegalArgumentException("this controller (" + self + ") is not a member of group " + groupName
                    + " " + ids);
        }
        if (members.size() < 3) {
            // Raft needs a majority: of 2 members, losing either stops every write
            throw new IllegalArgumentException("group " + groupName + " has " + members.size()
                    + " member(s); a replicated log needs at least 3 to survive the loss of one (add a witness)");
        }
    }

    /** The members that hold backends (and may become primary), in configuration order. */
    public List<String> dataMembers() {
        return members.stream().filter(m -> !m.witness()).map(Member::raftId).toList();
    }

    /** This controller's own entry. */
    public Member me() {
        return members.stream().filter(m -> m.raftId().equals(self)).findFirst().orElseThrow();
    }
}
