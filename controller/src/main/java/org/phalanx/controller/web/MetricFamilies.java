package org.phalanx.controller.web;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Collects the data points of one scrape by metric family (a family gathers the points of every
 * virtual database and backend under one name and help text), then builds the snapshots.
 */
final class MetricFamilies {
    private final Map<String, CounterSnapshot.Builder> counters = new LinkedHashMap<>();
    private final Map<String, GaugeSnapshot.Builder> gauges = new LinkedHashMap<>();
    private final Map<String, HistogramSnapshot.Builder> histograms = new LinkedHashMap<>();

    /** A counter; {@code name} without the {@code _total} the text format adds. */
    void counter(String name, String help, double value, Labels labels) {
        counters.computeIfAbsent(name, n -> CounterSnapshot.builder().name(n).help(help))
                .dataPoint(CounterDataPointSnapshot.builder().value(value).labels(labels).build());
    }

    void gauge(String name, String help, double value, Labels labels) {
        gauges.computeIfAbsent(name, n -> GaugeSnapshot.builder().name(n).help(help))
                .dataPoint(GaugeDataPointSnapshot.builder().value(value).labels(labels).build());
    }

    void histogram(String name, String help, HistogramDataPointSnapshot point) {
        histograms.computeIfAbsent(name, n -> HistogramSnapshot.builder().name(n).help(help)).dataPoint(point);
    }

    MetricSnapshots build() {
        MetricSnapshots.Builder all = MetricSnapshots.builder();
        counters.values().forEach(b -> all.metricSnapshot(b.build()));
        gauges.values().forEach(b -> all.metricSnapshot(b.build()));
        histograms.values().forEach(b -> all.metricSnapshot((MetricSnapshot) b.build()));
        return all.build();
    }
}
