package org.phalanx.bench.harness;

import java.util.List;
import java.util.Map;

/**
 * What one measured period of one variant produced. Latencies in microseconds; CPU per request
 * in microseconds of CPU time per completed request (NaN where not measured).
 *
 * @param classes        per request class, in the workload's order, then "all"
 * @param controllerKernelShare share of the controller's CPU time spent in the kernel (system calls)
 * @param engineCpuUs    CPU per request the emulated backends' real engines (SQLite, H2) used inside the
 *                       controller process: part of the controller's CPU that a real deployment would
 *                       spend on the database servers instead (NaN without emulated backends)
 * @param utilisation    mean busy share of the variant's emulated backends' slots (NaN if none)
 * @param otherCores     CPU the machine spent outside this benchmark's processes (noise), in cores
 * @param stealCores     CPU time the hypervisor took from this virtual machine (noise), in cores
 * @param cacheHitRate   share of the reads the controller's result cache answered during the period
 *                       (NaN without a cache)
 * @param answerP50Us    median time the controller took to answer a request during the period, from
 *                       the request read to the reply written (no network; NaN for direct variants)
 * @param backendWork    per emulated statement class, summed over the variant's backends: {executions
 *                       per request, slot-busy ms per request} (empty without emulated backends)
 */
public record RunResult(String variant, int round, double seconds, long requests, long errors, double rate,
                        List<ClassResult> classes, double clientCpuUs, double controllerCpuUs,
                        double controllerKernelShare, double engineCpuUs, double databaseCpuUs,
                        double machineCores, double otherCores, double stealCores, double utilisation, double minUtilisation,
                        double maxUtilisation, double cacheHitRate, double answerP50Us,
                        Map<String, double[]> backendWork,
                        String firstError) {

    /** One request class. */
    public record ClassResult(String name, long count, long errors, double rate, double p50, double p95, double p99,
                              double mean) {
    }

    public ClassResult all() {
        return classes.get(classes.size() - 1);
    }

    public ClassResult of(String requestClass) {
        for (ClassResult c : classes) {
            if (c.name().equals(requestClass)) {
                return c;
            }
        }
        throw new IllegalArgumentException("no request class " + requestClass);
    }
}
