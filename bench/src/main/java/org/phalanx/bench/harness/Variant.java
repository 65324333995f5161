package org.phalanx.bench.harness;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.phalanx.bench.workload.Workload;

/**
 * One side of a comparison: a workload, run by {@code clients} closed-loop threads against an
 * endpoint. {@code params} are what tells variants apart in tables and CSV (e.g. N=4, policy=all).
 * {@code think} is each client's mean pause between requests (zero: back to back; otherwise
 * negative exponential, as web benchmarks' emulated browsers think).
 */
public record Variant(String name, Endpoint endpoint, Workload workload, int clients, Map<String, Object> params,
                      Duration think) {

    public Variant {
        params = new LinkedHashMap<>(params);
    }

    public Variant(String name, Endpoint endpoint, Workload workload, int clients, Map<String, Object> params) {
        this(name, endpoint, workload, clients, params, Duration.ZERO);
    }

    /** The same variant with another number of clients. */
    public Variant withClients(int n) {
        return new Variant(name, endpoint, workload, n, params, think);
    }

    /** The same workload under another name and parameters, its clients pausing {@code mean} between requests. */
    public Variant thinking(String newName, Duration mean, Map<String, Object> newParams) {
        return new Variant(newName, endpoint, workload, clients, newParams, mean);
    }

    public Object param(String key) {
        return params.get(key);
    }

    @Override
    public String toString() {
        return name;
    }
}
