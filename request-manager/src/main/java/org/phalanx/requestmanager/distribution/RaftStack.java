package org.phalanx.requestmanager.distribution;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Collectors;
import org.jgroups.JChannel;

/** Builds the JGroups channel of a group's replicated log from our stack ({@code raft-stack.xml}). */
final class RaftStack {
    /** Never compact (yet): a member catching up replays the log from its start. */
    private static final long NO_COMPACTION = Long.MAX_VALUE;

    private RaftStack() {
    }

    static JChannel channel(GroupConfig config) throws Exception {
        String template;
        try (InputStream in = RaftStack.class.getResourceAsStream("raft-stack.xml")) {
            if (in == null) {
                throw new IOException("raft-stack.xml is missing from the classpath");
            }
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Map<String, String> values = Map.ofEntries(
                Map.entry("tls", tls(config.tls())),
                Map.entry("bind_addr", config.bindAddress()),
                Map.entry("bind_port", String.valueOf(config.me().port())),
                Map.entry("initial_hosts", config.members().stream().map(GroupConfig.Member::address)
                        .collect(Collectors.joining(","))),
                Map.entry("members", config.members().stream().map(GroupConfig.Member::raftId)
                        .collect(Collectors.joining(","))),
                Map.entry("raft_id", config.self()),
                Map.entry("witness", String.valueOf(config.me().witness())),
                Map.entry("witnesses", config.members().stream().filter(GroupConfig.Member::witness)
                        .map(GroupConfig.Member::raftId).collect(Collectors.joining(","))),
                Map.entry("log_dir", config.logDir().toAbsolutePath().toString()),
                Map.entry("log_prefix", config.groupName() + "-" + config.self()),
                Map.entry("max_log_size", String.valueOf(NO_COMPACTION)));
        String xml = template;
        for (Map.Entry<String, String> v : values.entrySet()) {
            xml = xml.replace("{" + v.getKey() + "}", v.getKey().equals("tls") ? v.getValue() : xmlAttribute(v.getValue()));
        }
        JChannel channel = new JChannel(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        channel.name(config.self());
        return channel;
    }

    /**
     * The transport's TLS attributes: the group's key store is also its trust store, and a peer must
     * present a certificate (JGroups' client_auth NEED), so only holders of a trusted key connect.
     */
    private static String tls(GroupConfig.Tls tls) {
        if (tls == null) {
            return "";
        }
        String path = xmlAttribute(tls.keyStore().toAbsolutePath().toString());
        String password = xmlAttribute(tls.password());
        String type = xmlAttribute(tls.type());
        return " tls.enabled=\"true\" tls.client_auth=\"NEED\""
                + " tls.keystore_path=\"" + path + "\" tls.keystore_password=\"" + password + "\" tls.keystore_type=\"" + type + "\""
                + " tls.truststore_path=\"" + path + "\" tls.truststore_password=\"" + password + "\" tls.truststore_type=\"" + type + "\"";
    }

    private static String xmlAttribute(String value) {
        return value.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;");
    }
}
