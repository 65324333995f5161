#!/usr/bin/env bash
# The controller tree demo: starts the three sub-controllers and the top controller of this
# sample (or of a copy of it, given as the argument), runs the demo client through the top,
# stops the controllers (top first, so everything queued reaches the leaves) and checks the
# leaf files. Exit status: 0 when the demo worked and every leaf is as its placement says.
#
#   samples/tree-sqlite/run-demo.sh [folder]
#
# Each controller's output goes to controller.log in its folder. Extra JVM options:
# PHALANX_JAVA_OPTS, as for bin/phalanx.
set -euo pipefail

PHALANX_HOME="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
DIR="$(cd "${1:-$PHALANX_HOME/samples/tree-sqlite}" && pwd)"
SAMPLES_TARGET="$PHALANX_HOME/samples/target"

samples_jar() {
    local jar
    for jar in "$SAMPLES_TARGET"/phalanx-samples-*.jar; do
        case "$jar" in
            *-sources.jar|*-javadoc.jar|*-tests.jar) ;;
            *) [ -f "$jar" ] && { echo "$jar"; return 0; } ;;
        esac
    done
    return 1
}

if ! samples_jar >/dev/null || [ ! -d "$SAMPLES_TARGET/lib" ] || ! ls "$PHALANX_HOME"/controller/target/phalanx-controller-*.jar >/dev/null 2>&1; then
    echo "run-demo: building Phalanx first (mvn -B -q -DskipTests package)..." >&2
    (cd "$PHALANX_HOME" && mvn -B -q -DskipTests package) >&2
fi

port_of() { sed -n 's/.*<listen[^>]*port="\([0-9]*\)".*/\1/p' "$1/controller.xml" | head -n 1; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

PIDS=()
stop_all() {
    # the top first (it drains its queued writes into the sub-controllers), then the subs
    local i
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
        kill -TERM "${PIDS[i]}" 2>/dev/null || true
        wait "${PIDS[i]}" 2>/dev/null || true
    done
    PIDS=()
}
trap stop_all EXIT

start_controller() {
    local folder="$1" port
    port="$(port_of "$folder")"
    if port_open "$port"; then
        echo "run-demo: port $port is already in use; stop what listens there or change $folder/controller.xml" >&2
        exit 1
    fi
    echo "== Starting $(basename "$folder") on port $port (log: $folder/controller.log)"
    "$PHALANX_HOME/bin/phalanx" controller "$folder/controller.xml" >"$folder/controller.log" 2>&1 &
    local pid=$!
    PIDS+=("$pid")
    local waited=0
    until port_open "$port"; do
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "run-demo: $(basename "$folder") did not start:" >&2
            cat "$folder/controller.log" >&2
            exit 1
        fi
        if [ "$waited" -ge 600 ]; then
            echo "run-demo: $(basename "$folder") did not listen on port $port within 60 s" >&2
            exit 1
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
}

for sub in "$DIR"/sub*/; do
    start_controller "${sub%/}"
done
start_controller "$DIR/top"

CP="$(samples_jar):$SAMPLES_TARGET/lib/*"
echo "== Running the demo client through the top controller"
# shellcheck disable=SC2086 # PHALANX_JAVA_OPTS holds several words on purpose
java ${PHALANX_JAVA_OPTS:-} -cp "$CP" org.phalanx.samples.TreeDemo \
    "jdbc:phalanx://127.0.0.1:$(port_of "$DIR/top")/shop?user=shop&password=shop" "$DIR"

echo "== Stopping the controllers (top first)"
stop_all
trap - EXIT
# shellcheck disable=SC2086
java ${PHALANX_JAVA_OPTS:-} -cp "$CP" org.phalanx.samples.TreeDemo --check "$DIR"
