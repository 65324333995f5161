#!/usr/bin/env python3
"""Summaries of BenchBase TPC-C runs for run-tpcc.sh.

  summarize.py per-type <raw.csv>     per-transaction-type latencies (CSV on stdout) from
                                      BenchBase's raw file (one line per measured transaction,
                                      whatever its outcome)
  summarize.py outcomes <log>...      retried, aborted and failed transactions found in BenchBase's
                                      logs, grouped by type, SQLState and message (digits as N), with
                                      the first occurrence of each
  summarize.py table <results dir>    the Markdown tables (stdout) from <dir>/<run>/summary.json,
                                      histograms.json and per-type.csv, run = direct, phalanx1, phalanx2

Goodput is BenchBase's "Goodput (requests/second)": completed (committed) transactions per second
of the measured period. BenchBase counts the outcome histograms over every transaction a terminal
finished while the run lasted, which can be slightly more than the "Measured Requests" of its
throughput figure, so goodput may exceed throughput by a few percent; every run is counted alike.
"""
import csv
import json
import math
import os
import re
import sys

TYPES = ["NewOrder", "Payment", "OrderStatus", "Delivery", "StockLevel"]
RUNS = [("direct", "direct (pgjdbc)"), ("phalanx1", "Phalanx 1 backend"), ("phalanx2", "Phalanx 2 backends")]
TARGETS = {"phalanx1": 0.6, "phalanx2": 0.35}
ABORT_TOLERANCE_PP = 0.5  # percentage points of a type's transactions, for the abort comparison


def percentile(sorted_values, p):
    if not sorted_values:
        return float("nan")
    k = max(0, math.ceil(p / 100.0 * len(sorted_values)) - 1)
    return sorted_values[k]


def per_type(raw_path):
    latencies = {}
    with open(raw_path, newline="") as f:
        reader = csv.reader(f)
        next(reader, None)
        for row in reader:
            if len(row) < 4:
                continue
            latencies.setdefault(row[1].strip(), []).append(int(row[3]) / 1000.0)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["type", "measured", "p50_ms", "p95_ms", "p99_ms", "avg_ms", "max_ms"])
    everything = []
    for name in TYPES + sorted(set(latencies) - set(TYPES)):
        values = sorted(latencies.get(name, []))
        everything.extend(values)
        if values:
            out.writerow([name, len(values), "%.2f" % percentile(values, 50), "%.2f" % percentile(values, 95),
                          "%.2f" % percentile(values, 99), "%.2f" % (sum(values) / len(values)), "%.2f" % values[-1]])
    everything.sort()
    if everything:
        out.writerow(["all", len(everything), "%.2f" % percentile(everything, 50), "%.2f" % percentile(everything, 95),
                      "%.2f" % percentile(everything, 99), "%.2f" % (sum(everything) / len(everything)),
                      "%.2f" % everything[-1]])


OUTCOME = re.compile(r"(Retryable SQLException occurred during \[(?:[\w$]+\.)*(?P<rtype>\w+)[^\]]*\].*?"
                     r"sql state \[(?P<rstate>[^\]]*)\], error code \[(?P<rcode>[^\]]*)\]"
                     r"|SQLException occurred during \[(?:[\w$]+\.)*(?P<etype>\w+)[^\]]*\] and will not be retried"
                     r"\.\.\. sql state \[(?P<estate>[^\]]*)\], error code \[(?P<ecode>[^\]]*)\]"
                     r"|[.\s](?P<atype>\w+)/\d+ Aborted)")


def outcomes(paths):
    groups = {}
    for path in paths:
        if not os.path.isfile(path):
            continue
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
        for i, line in enumerate(lines):
            m = OUTCOME.search(line)
            if not m:
                continue
            if m.group("rtype"):
                kind, tx, state = "retried (rejected)", m.group("rtype"), "%s/%s" % (m.group("rstate"), m.group("rcode"))
            elif m.group("etype"):
                kind, tx, state = "unexpected error", m.group("etype"), "%s/%s" % (m.group("estate"), m.group("ecode"))
            else:
                kind, tx, state = "aborted", m.group("atype"), "-"
            exception = ""
            if i + 1 < len(lines) and not lines[i + 1].startswith("[") and not lines[i + 1].startswith("\tat"):
                exception = lines[i + 1].strip()
            key = (kind, tx, state, re.sub(r"\d+", "N", exception))
            g = groups.setdefault(key, {"count": 0, "first": line.strip() + ("\n    " + exception if exception else "")})
            g["count"] += 1
    if not groups:
        print("no retried, aborted or failed transaction logged")
        return
    print("every such transaction BenchBase logged while the run lasted, measured or not (the counts of record"
          " are in histograms.json)")
    print("count | outcome | transaction | SQLState/vendor code | exception (digits as N)")
    for (kind, tx, state, exc), g in sorted(groups.items(), key=lambda kv: (-kv[1]["count"], kv[0])):
        print("%d | %s | %s | %s | %s" % (g["count"], kind, tx, state, exc))
    print()
    print("first occurrence of each:")
    for key, g in groups.items():
        print(g["first"])


def load_run(directory):
    run = {"ok": False}
    summary = os.path.join(directory, "summary.json")
    if not os.path.isfile(summary):
        return run
    with open(summary) as f:
        s = json.load(f)
    run["ok"] = True
    run["goodput"] = s["Goodput (requests/second)"]
    run["throughput"] = s["Throughput (requests/second)"]
    run["elapsed_s"] = s["Elapsed Time (nanoseconds)"] / 1e9
    dist = s["Latency Distribution"]
    run["p50"] = dist["Median Latency (microseconds)"] / 1000.0
    run["p95"] = dist["95th Percentile Latency (microseconds)"] / 1000.0
    counts = {kind: {t: 0 for t in TYPES} for kind in ("completed", "aborted", "rejected", "unexpected")}
    hist = os.path.join(directory, "histograms.json")
    if os.path.isfile(hist):
        with open(hist) as f:
            h = json.load(f)
        for kind in counts:
            for key, n in h.get(kind, {}).get("HISTOGRAM", {}).items():
                name = key.rsplit(".", 1)[-1].split("/")[0]
                counts[kind][name] = counts[kind].get(name, 0) + n
    run["counts"] = counts
    lat = {}
    pt = os.path.join(directory, "per-type.csv")
    if os.path.isfile(pt):
        with open(pt, newline="") as f:
            for row in csv.DictReader(f):
                lat[row["type"]] = row
    run["latency"] = lat
    return run


def total(run, kind):
    return sum(run["counts"][kind].values())


def attempts(run, t):
    return sum(run["counts"][k][t] for k in ("completed", "aborted", "rejected", "unexpected"))


def pct(part, whole):
    return 100.0 * part / whole if whole else 0.0


def table(results):
    runs = {key: load_run(os.path.join(results, key)) for key, _ in RUNS if os.path.isdir(os.path.join(results, key))}
    direct = runs.get("direct") if runs.get("direct", {}).get("ok") else None
    load = {}
    info = os.path.join(results, "run-info.txt")
    if os.path.isfile(info):
        with open(info) as f:
            for line in f:
                m = re.match(r"(\w+): .*Finished executing \d+ Loader Threads \[time=([\d.]+)s\]", line)
                if m:
                    load[m.group(1)] = float(m.group(2))
    lines = []
    lines.append("| run | goodput (tx/s) | ratio to direct | target | NewOrder/min | p50 (ms) | p95 (ms) "
                 "| completed | aborted | rejected (retry) | unexpected errors | load (s) |")
    lines.append("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for key, label in RUNS:
        if key not in runs:
            continue
        r = runs[key]
        if not r["ok"]:
            lines.append("| %s | failed (no summary) | | %s | | | | | | | | |"
                         % (label, "≥ %.2f×" % TARGETS[key] if key in TARGETS else ""))
            continue
        ratio, target = "", ""
        if key in TARGETS:
            target = "≥ %.2f×" % TARGETS[key]
            if direct:
                x = r["goodput"] / direct["goodput"]
                ratio = "%.2f×" % x
                target += " (met)" if x >= TARGETS[key] else " (**missed**)"
        elif key == "direct":
            ratio = "1.00×"
        tpm = r["counts"]["completed"]["NewOrder"] * 60.0 / r["elapsed_s"]
        lines.append("| %s | %.1f | %s | %s | %.0f | %.2f | %.2f | %d | %d | %d | %d | %s |" % (
            label, r["goodput"], ratio, target, tpm, r["p50"], r["p95"], total(r, "completed"),
            total(r, "aborted"), total(r, "rejected"), total(r, "unexpected"),
            "%.0f" % load[key] if key in load else "–"))
    lines.append("")
    lines.append("Per transaction type (latencies over every measured transaction of the type, whatever its outcome;"
                 " aborted = BenchBase user aborts: NewOrder's 1 % invalid item by design, Delivery's"
                 " `NewOrder delete failed` when a concurrent Delivery took the same order at READ COMMITTED):")
    lines.append("")
    lines.append("| run | type | completed | aborted | aborted % | rejected (retry) | unexpected errors "
                 "| p50 (ms) | p95 (ms) |")
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for key, label in RUNS:
        r = runs.get(key)
        if not r or not r["ok"]:
            continue
        for t in TYPES:
            c = r["counts"]
            lat = r["latency"].get(t, {})
            lines.append("| %s | %s | %d | %d | %.2f | %d | %d | %s | %s |" % (
                label, t, c["completed"][t], c["aborted"][t], pct(c["aborted"][t], attempts(r, t)),
                c["rejected"][t], c["unexpected"][t], lat.get("p50_ms", "–"), lat.get("p95_ms", "–")))
    lines.append("")
    if direct:
        verdicts = []
        for key, label in RUNS[1:]:
            r = runs.get(key)
            if not r or not r["ok"]:
                continue
            worse, retried = [], []
            for t in TYPES:
                da = pct(direct["counts"]["aborted"][t], attempts(direct, t))
                pa = pct(r["counts"]["aborted"][t], attempts(r, t))
                if pa > da + ABORT_TOLERANCE_PP:
                    worse.append("%s aborted %.2f %% vs %.2f %%" % (t, pa, da))
                if r["counts"]["unexpected"][t] > direct["counts"]["unexpected"][t]:
                    worse.append("%s unexpected errors %d vs %d" % (t, r["counts"]["unexpected"][t],
                                                                    direct["counts"]["unexpected"][t]))
                if r["counts"]["rejected"][t] > direct["counts"]["rejected"][t]:
                    retried.append("%s %d vs %d" % (t, r["counts"]["rejected"][t], direct["counts"]["rejected"][t]))
            text = ("aborts and unexpected errors within direct's (abort rate of each type at most %.1f percentage"
                    " point above direct's, unexpected errors at most direct's count)" % ABORT_TOLERANCE_PP
                    if not worse else "aborts or unexpected errors beyond direct's: " + "; ".join(worse))
            text += ("; rejected (SQLState 40001, retried by BenchBase) beyond direct's: " + "; ".join(retried)
                     if retried else "; rejections not above direct's")
            verdicts.append("%s: %s" % (label, text))
        lines.extend("- " + v for v in verdicts)
    print("\n".join(lines))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "per-type":
        per_type(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "outcomes":
        outcomes(sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "table":
        table(sys.argv[2])
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()
