#!/usr/bin/env bash
# BenchBase TPC-C: direct PostgreSQL vs Phalanx with one and with two PostgreSQL backends
# (issue 17, done-when 2).
#
#   bench/benchbase/run-tpcc.sh            # all three runs, about 3 x 90 s plus the loads
#   RUNS="direct phalanx2" bench/benchbase/run-tpcc.sh    # some of them (the others' results are kept)
#
# What it does, in order (idempotent: every run starts from scratch):
#   1. Builds BenchBase at commit 65322e95 (2023-12, the last one that builds on Java 17) into
#      $BENCHBASE_DIR (default /tmp/benchbase) if $BENCHBASE_DIR/target/benchbase-postgres/benchbase.jar
#      is missing: git clone of $BENCHBASE_GIT, `mvn -B -q -DskipTests -P postgres package`, the
#      benchbase-postgres.tgz unpacked in target/. (The clone is sparse: a few large data files of
#      other benchmarks, absent from some mirrors, are left out.)
#   2. Builds Phalanx (`mvn -B -q -DskipTests package` at the repository root) if the driver or
#      controller jar is missing, then copies bin/phalanx and the controller's jars into
#      $WORK_DIR/phalanx, so that a rebuild in the checkout during the runs cannot change the
#      running controller, and the driver jar into BenchBase's lib/ (phalanx-driver.jar).
#   3. Drops and creates the PostgreSQL databases phalanx_bb_direct, phalanx_bb_one,
#      phalanx_bb_two_a and phalanx_bb_two_b.
#   4. Starts a controller (`bin/phalanx controller`, configs generated from the *.tmpl files of
#      this folder into $WORK_DIR/conf; port $PHALANX_PORT or the next free one; no JMX) hosting
#      "one" (RAIDb-1 over phalanx_bb_one) and "two" (RAIDb-1 over phalanx_bb_two_a and _b,
#      waitPolicy first, least-pending; lockGranularity left at its default, key-level on
#      PostgreSQL); virtual user bench/bench mapped to the backends' user.
#   5. Runs BenchBase TPC-C (create + load + execute; $WAREHOUSES warehouses, $TERMINALS
#      terminals, $TIME s measured, READ COMMITTED, unlimited rate, the standard mix) three
#      times: "direct" (pgjdbc to phalanx_bb_direct), "phalanx1" (org.phalanx.driver.Driver,
#      jdbc:phalanx://127.0.0.1:<port>/one) and "phalanx2" (.../two); type POSTGRES in every run,
#      so the SQL is PostgreSQL's. pgjdbc gets reWriteBatchedInserts=true on every path (BenchBase's
#      sample URL for direct, the backend URLs for Phalanx).
#   6. Stops the controller, compares every TPC-C table of phalanx_bb_two_a and phalanx_bb_two_b
#      with an ordered checksum (md5 of string_agg of the rows as text, ordered), and drops the
#      databases (KEEP_DATABASES=1 keeps them).
#   7. Writes into bench/benchbase/results/<run>/ BenchBase's summary (summary.json), the 5 s
#      windows (results.csv), the per-type status counts (histograms.json), per-type latencies
#      computed from the raw file (per-type.csv), the retried (SQLState 40001), aborted and failed
#      transactions grouped by message (outcomes.txt; BenchBase logs retries and aborts only at
#      DEBUG, so log4j.properties of this folder sends those two messages to a file) and the
#      first warnings/errors of BenchBase's log (errors.txt, when there are any);
#      results/replicas.txt, results/run-info.txt, and results/summary.md, the table also printed
#      at the end (summarize.py): goodput, p50/p95, aborted/rejected/unexpected-error counts per
#      transaction type, ratios to direct. Logs and raw files stay in $WORK_DIR.
#
# Environment (defaults): BENCHBASE_DIR (/tmp/benchbase), BENCHBASE_GIT (the local mirror
# /work/.mirror/cmu-db+benchbase/repo if present, else https://github.com/cmu-db/benchbase.git),
# WORK_DIR (/tmp/phalanx-bb), PGHOST (127.0.0.1), PGPORT (5432), PGUSER (postgres), PGPASSWORD
# (empty: trust auth), PHALANX_PORT (25400), WAREHOUSES (2), TERMINALS (8), TIME (60),
# WARMUP (0), RUNS ("direct phalanx1 phalanx2"), KEEP_DATABASES (0).
# Requirements: Java 17, Maven, git, psql, python3, a PostgreSQL server (13+) where PGUSER may
# create databases.
set -euo pipefail

HERE="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"

BENCHBASE_DIR="${BENCHBASE_DIR:-/tmp/benchbase}"
BENCHBASE_COMMIT=65322e95bab0eebec6e8ac0ff7b08197b1acd118
if [ -z "${BENCHBASE_GIT:-}" ]; then
    if [ -d /work/.mirror/cmu-db+benchbase/repo ]; then
        BENCHBASE_GIT=/work/.mirror/cmu-db+benchbase/repo
    else
        BENCHBASE_GIT=https://github.com/cmu-db/benchbase.git
    fi
fi
BB_DIST="$BENCHBASE_DIR/target/benchbase-postgres"
WORK_DIR="${WORK_DIR:-/tmp/phalanx-bb}"
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
export PGPASSWORD="${PGPASSWORD:-}"
PHALANX_PORT="${PHALANX_PORT:-25400}"
WAREHOUSES="${WAREHOUSES:-2}"
TERMINALS="${TERMINALS:-8}"
TIME="${TIME:-60}"
WARMUP="${WARMUP:-0}"
RUNS="${RUNS:-direct phalanx1 phalanx2}"
KEEP_DATABASES="${KEEP_DATABASES:-0}"
VUSER=bench
VPASSWORD=bench
DB_DIRECT=phalanx_bb_direct
DB_ONE=phalanx_bb_one
DB_TWO_A=phalanx_bb_two_a
DB_TWO_B=phalanx_bb_two_b
TPCC_TABLES="warehouse district customer history oorder new_order order_line item stock"
RESULTS="$HERE/results"

log() { echo "== $*" >&2; }
die() { echo "run-tpcc: $*" >&2; exit 1; }
psql_admin() { psql -X -q -v ON_ERROR_STOP=1 -d postgres "$@"; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

for tool in java mvn git psql python3; do
    command -v "$tool" >/dev/null || die "$tool is not on the PATH"
done
for run in $RUNS; do
    case "$run" in direct|phalanx1|phalanx2) ;; *) die "unknown run '$run' (direct, phalanx1, phalanx2)" ;; esac
done
has_run() { case " $RUNS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# ---------------------------------------------------------------------------------------------
# 1. BenchBase
# ---------------------------------------------------------------------------------------------
ensure_benchbase() {
    if [ -f "$BB_DIST/benchbase.jar" ]; then
        return 0
    fi
    if [ ! -d "$BENCHBASE_DIR/.git" ]; then
        log "cloning BenchBase from $BENCHBASE_GIT into $BENCHBASE_DIR"
        rm -rf "$BENCHBASE_DIR"
        git clone -q --no-checkout "$BENCHBASE_GIT" "$BENCHBASE_DIR"
        # large data files of other benchmarks (TPC-H, Twitter): not needed, missing from some mirrors
        git -C "$BENCHBASE_DIR" sparse-checkout set --no-cone '/*' '!/data/tpch-sf0.01/lineitem.tbl' \
            '!/data/tpch-sf0.1/' '!/data/twitter/'
    fi
    git -C "$BENCHBASE_DIR" checkout -q "$BENCHBASE_COMMIT" 2>/dev/null \
        || git -C "$BENCHBASE_DIR" checkout -q "$BENCHBASE_COMMIT"
    log "building BenchBase $(git -C "$BENCHBASE_DIR" log -1 --format='%h (%cs)') with -P postgres"
    (cd "$BENCHBASE_DIR" && mvn -B -q -DskipTests -P postgres package)
    rm -rf "$BB_DIST"
    tar -xzf "$BENCHBASE_DIR/target/benchbase-postgres.tgz" -C "$BENCHBASE_DIR/target"
    [ -f "$BB_DIST/benchbase.jar" ] || die "BenchBase built, but $BB_DIST/benchbase.jar is missing"
}

# ---------------------------------------------------------------------------------------------
# 2. Phalanx
# ---------------------------------------------------------------------------------------------
first_jar() { # the main jar of a module's target folder
    local jar
    for jar in "$1"/phalanx-"$2"-*.jar; do
        case "$jar" in *-sources.jar|*-javadoc.jar|*-tests.jar) ;; *) [ -f "$jar" ] && { echo "$jar"; return 0; } ;; esac
    done
    return 1
}

ensure_phalanx() {
    if ! first_jar "$REPO/driver/target" driver >/dev/null || ! first_jar "$REPO/controller/target" controller >/dev/null \
            || [ ! -d "$REPO/controller/target/lib" ]; then
        log "building Phalanx (mvn -B -q -DskipTests package)"
        (cd "$REPO" && mvn -B -q -DskipTests package)
    fi
    local snap="$WORK_DIR/phalanx"
    rm -rf "$snap"
    mkdir -p "$snap/bin" "$snap/controller/target"
    cp "$REPO/bin/phalanx" "$snap/bin/"
    cp -p "$(first_jar "$REPO/controller/target" controller)" "$snap/controller/target/"
    cp -r "$REPO/controller/target/lib" "$snap/controller/target/lib"
    rm -f "$BB_DIST"/lib/phalanx-driver*.jar
    cp -p "$(first_jar "$REPO/driver/target" driver)" "$BB_DIST/lib/phalanx-driver.jar"
}

# ---------------------------------------------------------------------------------------------
# 3. databases
# ---------------------------------------------------------------------------------------------
drop_databases() {
    local db
    for db in $DB_DIRECT $DB_ONE $DB_TWO_A $DB_TWO_B; do
        psql_admin -c "DROP DATABASE IF EXISTS $db WITH (FORCE)"
    done
}

create_databases() {
    drop_databases
    local db
    for db in $DB_DIRECT $DB_ONE $DB_TWO_A $DB_TWO_B; do
        psql_admin -c "CREATE DATABASE $db"
    done
}

# ---------------------------------------------------------------------------------------------
# 4. controller
# ---------------------------------------------------------------------------------------------
CONTROLLER_PID=""

fill() { # template -> file, @NAME@ replaced by the values given as NAME=value
    local template="$1" out="$2" expr=() kv
    shift 2
    for kv in "$@"; do
        local value="${kv#*=}"
        value="${value//\\/\\\\}"
        value="${value//&/\\&}"
        value="${value//|/\\|}"
        expr+=(-e "s|@${kv%%=*}@|${value}|g")
    done
    sed "${expr[@]}" "$template" >"$out"
    ! grep -n '@[A-Z_0-9]*@' "$out" || die "unfilled placeholder in $out"
}

start_controller() {
    local conf="$WORK_DIR/conf" port="$PHALANX_PORT"
    while port_open "$port"; do
        port=$((port + 1))
        [ "$port" -lt $((PHALANX_PORT + 100)) ] || die "no free port from $PHALANX_PORT on"
    done
    PHALANX_PORT="$port"
    rm -rf "$conf"
    mkdir -p "$conf"
    local common=(VUSER="$VUSER" VPASSWORD="$VPASSWORD" PGHOST="$PGHOST" PGPORT="$PGPORT" PGUSER="$PGUSER"
        PGPASSWORD="$PGPASSWORD")
    fill "$HERE/controller.xml.tmpl" "$conf/controller.xml" PORT="$port"
    fill "$HERE/vdb-one.xml.tmpl" "$conf/one.xml" "${common[@]}" DB_ONE="$DB_ONE"
    fill "$HERE/vdb-two.xml.tmpl" "$conf/two.xml" "${common[@]}" DB_TWO_A="$DB_TWO_A" DB_TWO_B="$DB_TWO_B"
    log "starting the controller on 127.0.0.1:$port (log: $WORK_DIR/controller.log)"
    "$WORK_DIR/phalanx/bin/phalanx" controller "$conf/controller.xml" >"$WORK_DIR/controller.log" 2>&1 &
    CONTROLLER_PID=$!
    local waited=0
    until port_open "$port"; do
        if ! kill -0 "$CONTROLLER_PID" 2>/dev/null; then
            cat "$WORK_DIR/controller.log" >&2
            CONTROLLER_PID=""
            die "the controller did not start"
        fi
        [ "$waited" -lt 600 ] || die "the controller did not listen on port $port within 60 s"
        sleep 0.1
        waited=$((waited + 1))
    done
}

stop_controller() {
    if [ -n "$CONTROLLER_PID" ]; then
        log "stopping the controller (pid $CONTROLLER_PID)"
        kill -TERM "$CONTROLLER_PID" 2>/dev/null || true
        wait "$CONTROLLER_PID" 2>/dev/null || true
        CONTROLLER_PID=""
    fi
}

cleanup() {
    stop_controller
    if [ "$KEEP_DATABASES" != 1 ]; then
        drop_databases 2>/dev/null || true
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------------------------------------
# 5. BenchBase runs
# ---------------------------------------------------------------------------------------------
# run_benchbase <run> <driver> <url (XML-escaped)> <user> <password>
run_benchbase() {
    local run="$1" driver="$2" url="$3" user="$4" password="$5"
    local out="$WORK_DIR/runs/$run" dest="$RESULTS/$run"
    rm -rf "$out" "$dest"
    mkdir -p "$out" "$dest"
    fill "$HERE/tpcc-config.xml.tmpl" "$out/tpcc.xml" DRIVER="$driver" URL="$url" USER="$user" \
        PASSWORD="$password" WAREHOUSES="$WAREHOUSES" TERMINALS="$TERMINALS" TIME="$TIME" WARMUP="$WARMUP"
    echo "$run: load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RESULTS/run-info.txt"
    log "$run: BenchBase TPC-C create + load + execute ($WAREHOUSES warehouses, $TERMINALS terminals, ${TIME}s) -> $url"
    local status=0 started=$SECONDS
    (cd "$BB_DIST" && java -Dlog4j.configuration="file:$HERE/log4j.properties" -Dbenchbase.outcomes.log="$out/outcomes.log" \
        -cp "benchbase.jar:lib/*" com.oltpbenchmark.DBWorkload -b tpcc -c "$out/tpcc.xml" \
        --create=true --load=true --execute=true -d "$out" --json-histograms "$out/histograms.json") \
        >"$out/benchbase.log" 2>&1 || status=$?
    echo "$run: BenchBase exit status $status after $((SECONDS - started)) s" >>"$RESULTS/run-info.txt"
    grep -E 'Finished|Loading|Creating' "$out/benchbase.log" | sed "s/^/$run: /" >>"$RESULTS/run-info.txt" || true
    # the small files only; the raw file (one line per transaction) stays in $out
    local f
    for f in "$out"/*.summary.json; do [ -f "$f" ] && cp "$f" "$dest/summary.json"; done
    for f in "$out"/*.results.csv; do [ -f "$f" ] && cp "$f" "$dest/results.csv"; done
    [ -f "$out/histograms.json" ] && cp "$out/histograms.json" "$dest/"
    cp "$out/tpcc.xml" "$dest/tpcc-config.xml"
    for f in "$out"/*.raw.csv; do [ -f "$f" ] && python3 "$HERE/summarize.py" per-type "$f" >"$dest/per-type.csv"; done
    # retried, aborted and failed transactions grouped by type, SQLState and message; then the
    # first warnings and errors of BenchBase's log, with their exception lines
    python3 "$HERE/summarize.py" outcomes "$out/outcomes.log" "$out/benchbase.log" >"$dest/outcomes.txt"
    grep -n -E ' (WARN|ERROR) |Exception|SQLState|sql state|Caused by' "$out/benchbase.log" | head -n 60 >"$dest/errors.txt" || true
    [ -s "$dest/errors.txt" ] || rm -f "$dest/errors.txt"
    if [ "$status" -ne 0 ]; then
        log "$run: BenchBase failed (exit status $status); the end of its log:"
        tail -n 30 "$out/benchbase.log" >&2
    fi
    return 0
}

compare_replicas() {
    local table a b same=0 differ=0 report="$RESULTS/replicas.txt"
    : >"$report"
    echo "table,rows_a,rows_b,md5_a,md5_b,verdict" >>"$report"
    for table in $TPCC_TABLES; do
        local q="SELECT count(*) || ',' || coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), 'empty') FROM $table t"
        a="$(psql -X -At -d "$DB_TWO_A" -c "$q" 2>&1 | tr '\n' ' ')"
        b="$(psql -X -At -d "$DB_TWO_B" -c "$q" 2>&1 | tr '\n' ' ')"
        local verdict=identical
        if [ "$a" = "$b" ]; then same=$((same + 1)); else verdict=DIFFERENT; differ=$((differ + 1)); fi
        echo "$table,${a%%,*},${b%%,*},${a#*,},${b#*,},$verdict" | sed 's/ ,/,/g; s/ $//' >>"$report"
    done
    echo "summary: $same tables identical, $differ different ($DB_TWO_A vs $DB_TWO_B)" >>"$report"
    log "replica comparison ($DB_TWO_A vs $DB_TWO_B):"
    cat "$report" >&2
}

# ---------------------------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------------------------
mkdir -p "$WORK_DIR" "$RESULTS"
ensure_benchbase
ensure_phalanx
# a run's results are replaced only when it runs again (RUNS=direct keeps the Phalanx runs' files);
# run-info.txt is rewritten by a run of all three, appended to otherwise (the last lines of a run win)
for run in $RUNS; do rm -rf "${RESULTS:?}/$run"; done
if has_run phalanx2; then rm -f "$RESULTS/replicas.txt"; fi
if has_run phalanx1 || has_run phalanx2; then rm -f "$RESULTS/controller-errors.txt"; fi
if has_run direct && has_run phalanx1 && has_run phalanx2; then : >"$RESULTS/run-info.txt"; fi
{
    echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "phalanx: $(git -C "$REPO" rev-parse --short HEAD), $(git -C "$REPO" status --porcelain -uno | wc -l) modified tracked files in the checkout; driver jar $(date -u -r "$BB_DIST/lib/phalanx-driver.jar" '+%F %T'), controller jar $(date -u -r "$(first_jar "$WORK_DIR/phalanx/controller/target" controller)" '+%F %T')"
    echo "benchbase: $(git -C "$BENCHBASE_DIR" rev-parse --short HEAD) ($(git -C "$BENCHBASE_DIR" log -1 --format=%cs)), -P postgres"
    echo "postgresql: $(psql -X -At -d postgres -c 'SHOW server_version')"
    echo "java: $(java -version 2>&1 | head -n 1)"
    echo "machine: $(nproc) vCPUs ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)), $(free -g | awk '/^Mem:/ {print $2}') GB, shared by BenchBase, the controller and PostgreSQL"
    echo "workload: TPC-C, $WAREHOUSES warehouses, $TERMINALS terminals, warmup ${WARMUP}s, ${TIME}s measured, READ COMMITTED, unlimited rate"
    echo "runs: $RUNS"
} >>"$RESULTS/run-info.txt"
create_databases

for run in $RUNS; do
    case "$run" in
        direct)
            run_benchbase direct org.postgresql.Driver \
                "jdbc:postgresql://$PGHOST:$PGPORT/$DB_DIRECT?sslmode=disable&amp;ApplicationName=tpcc&amp;reWriteBatchedInserts=true" \
                "$PGUSER" "$PGPASSWORD"
            ;;
        phalanx1|phalanx2)
            [ -n "$CONTROLLER_PID" ] || start_controller
            vdb=one
            [ "$run" = phalanx2 ] && vdb=two
            run_benchbase "$run" org.phalanx.driver.Driver "jdbc:phalanx://127.0.0.1:$PHALANX_PORT/$vdb" "$VUSER" "$VPASSWORD"
            ;;
    esac
done

if [ -f "$WORK_DIR/controller.log" ] && [ -n "$CONTROLLER_PID" ]; then
    stop_controller
    grep -n -E ' (WARN|ERROR) |Exception|SQLState|Caused by' "$WORK_DIR/controller.log" | head -n 60 \
        >"$RESULTS/controller-errors.txt" || true
    [ -s "$RESULTS/controller-errors.txt" ] || rm -f "$RESULTS/controller-errors.txt"
fi
if has_run phalanx2; then compare_replicas; fi

python3 "$HERE/summarize.py" table "$RESULTS" | tee "$RESULTS/summary.md"
