package org.phalanx.bench.cluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.phalanx.engine.Engine;

/**
 * A virtual database file to write: its backends, the attributes of its {@code <requestManager>}
 * element (replication, waitPolicy, balancing, lockGranularity...), XML inside that element
 * ({@code createTable} rules) and the elements after it ({@code recoveryLog}, {@code cache}).
 */
public record VirtualDatabaseSpec(String name, List<BackendSpec> backends, Map<String, String> requestManager,
                                  String requestManagerBody, String after) {

    public VirtualDatabaseSpec {
        backends = List.copyOf(backends);
        requestManager = new LinkedHashMap<>(requestManager);
    }

    public VirtualDatabaseSpec(String name, List<BackendSpec> backends, Map<String, String> requestManager) {
        this(name, backends, requestManager, "", "");
    }

    /** The same with these elements inside {@code <requestManager>} (e.g. createTable rules). */
    public VirtualDatabaseSpec withRequestManagerBody(String xml) {
        return new VirtualDatabaseSpec(name, backends, requestManager, xml, after);
    }

    /** The same with these elements after {@code <requestManager>} (recoveryLog, cache). */
    public VirtualDatabaseSpec withAfter(String xml) {
        return new VirtualDatabaseSpec(name, backends, requestManager, requestManagerBody, xml);
    }

    /** The same with every backend's {@code maxPending} set (reads beyond it wait at the controller). */
    public VirtualDatabaseSpec withMaxPending(int max) {
        return new VirtualDatabaseSpec(name, backends.stream().map(b -> b.withMaxPending(max)).toList(), requestManager,
                requestManagerBody, after);
    }

    /** The names of the backends (as the emulated servers know them, when emulated). */
    public List<String> backendNames() {
        return backends.stream().map(BackendSpec::name).toList();
    }

    String xml() {
        StringBuilder sb = new StringBuilder();
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append("<virtualDatabase xmlns=\"urn:phalanx:virtual-database:1\" name=\"").append(esc(name)).append('"');
        if (backends.stream().map(b -> Engine.ofUrl(b.url())).distinct().count() > 1) {
            sb.append(" sqlDialect=\"postgresql\""); // the scenarios write portable SQL; mixed engines need a dialect
        }
        sb.append(">\n");
        sb.append("  <users>\n    <user name=\"").append(BenchController.USER).append("\" password=\"")
                .append(BenchController.PASSWORD).append("\"/>\n  </users>\n");
        sb.append("  <backends>\n");
        for (BackendSpec b : backends) {
            sb.append("    <backend name=\"").append(esc(b.name())).append("\" url=\"").append(esc(b.url())).append('"');
            if (b.driver() != null) {
                sb.append(" driver=\"").append(esc(b.driver())).append('"');
            }
            if (b.user() != null) {
                sb.append(" user=\"").append(esc(b.user())).append('"');
            }
            if (b.password() != null) {
                sb.append(" password=\"").append(esc(b.password())).append('"');
            }
            if (b.maxPending() > 0) {
                sb.append(" maxPending=\"").append(b.maxPending()).append('"');
            }
            sb.append(" poolSize=\"").append(b.poolSize()).append("\"/>\n");
        }
        sb.append("  </backends>\n");
        sb.append("  <requestManager");
        requestManager.forEach((k, v) -> sb.append(' ').append(k).append("=\"").append(esc(v)).append('"'));
        if (requestManagerBody.isBlank()) {
            sb.append("/>\n");
        } else {
            sb.append(">\n").append(requestManagerBody.stripTrailing()).append("\n  </requestManager>\n");
        }
        if (!after.isBlank()) {
            sb.append(after.stripTrailing()).append('\n');
        }
        sb.append("</virtualDatabase>\n");
        return sb.toString();
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
