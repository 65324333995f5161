package org.phalanx.bench.harness;

import java.util.LinkedHashMap;
import java.util.Map;
import org.phalanx.bench.workload.Workload;

/**
 * One side of a comparison: a workload, run by {@code clients} closed-loop threads against an
 * endpoint. {@code params} are what tells variants apart in tables and CSV (e.g. N=4, policy=all).
 */
public record Variant(String name, Endpoint endpoint, Workload workload, int clients, Map<String, Object> params) {

    public Variant {
        params = new LinkedHashMap<>(params);
    }

    /** The same variant with another number of clients. */
    public Variant withClients(int n) {
        return new Variant(name, endpoint, workload, n, params);
    }

    public Object param(String key) {
        return params.get(key);
    }

    @Override
    public String toString() {
        return name;
    }
}
