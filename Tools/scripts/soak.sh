#!/usr/bin/env bash
# Soaks the sample app (make soak, CONTRIBUTING.md "Soak"): `prism-sample soak` drives every live
# feature at a fixed action rate against the demo server (its own process), with the inspector's
# page open in headless Chromium, while soak-monitor.py samples the app's resident memory, open
# descriptors, threads and its own counters. Fails if the app reports a problem (a failure, a lost
# save, the page gone) or if anything grew past its bound after the warm-up.
#
#   SOAK_SECONDS=1800   how long (default 30 minutes)
#   SOAK_RATE=50        actions per second
#   SOAK_OUT=dir        where the samples go (default .build-soak/<date>): samples.csv, samples.png,
#                       the app's, the server's and Chromium's logs
#   SOAK_BROWSER=0      without the inspector's page
set -euo pipefail
cd "$(dirname "$0")/../.."

SWIFT=${SWIFT:-swift}
seconds=${SOAK_SECONDS:-1800}
rate=${SOAK_RATE:-50}
out=${SOAK_OUT:-.build-soak/$(date -u +%Y%m%dT%H%M%SZ)}
browser=${SOAK_BROWSER:-1}
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [ "$browser" = 1 ]; then
    Tools/scripts/install-browser-deps.sh
fi
echo "== Building prism-sample"
Tools/scripts/swift-root.sh "$SWIFT" build --product prism-sample
app="$($SWIFT build --show-bin-path)/prism-sample"

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
    wait 2> /dev/null || true
}
trap cleanup EXIT

# Waits up to $3 seconds for a line starting with $2 in file $1 and prints its last word.
wait_for_line() {
    local file=$1 prefix=$2 limit=$3
    for _ in $(seq $((limit * 10))); do
        local line
        line=$(grep -m1 "^$prefix" "$file" 2> /dev/null || true)
        if [ -n "$line" ]; then
            echo "${line##* }"
            return 0
        fi
        sleep 0.1
    done
    echo "no \"$prefix\" line in $file after $limit s:" >&2
    cat "$file" >&2
    return 1
}

echo "== Starting the demo server"
"$app" serve --port 0 > "$out/server.log" 2>&1 &
pids+=("$!")
server=$(wait_for_line "$out/server.log" "Demo server listening on" 60)

echo "== Soaking for $seconds s at $rate actions/s against $server (samples in $out)"
inspect=()
if [ "$browser" = 1 ]; then inspect=(--inspect --wait-for-page 60); fi
"$app" soak --data-dir "$out/data" --server "$server" --seconds "$seconds" --rate "$rate" \
    --counters "$out/counters.json" "${inspect[@]}" > "$out/app.log" 2>&1 &
app_pid=$!
pids+=("$app_pid")

if [ "$browser" = 1 ]; then
    page=$(wait_for_line "$out/app.log" "Inspector:" 60)
    "${CHROMIUM:-/usr/bin/chromium}" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --no-first-run --disable-extensions --user-data-dir="$out/chromium-profile" "$page" \
        > "$out/chromium.log" 2>&1 &
    pids+=("$!")
fi
wait_for_line "$out/app.log" "Soaking for" 90 > /dev/null

monitor=0
python3 Tools/scripts/soak-monitor.py --pid "$app_pid" --seconds "$((seconds - 2))" --out "$out" \
    --counters "$out/counters.json" --interval 5 \
    --bound tasks=1 --bound detail_open=1 --bound network_steps_running=8 || monitor=$?
status=0
wait "$app_pid" || status=$?
cat "$out/app.log"
if [ "$status" -ne 0 ]; then
    echo "soak: prism-sample soak failed ($status); see $out/app.log" >&2
    exit 1
fi
if [ "$monitor" -ne 0 ]; then
    echo "soak: something grew past its bound (the table above; $out/samples.png)" >&2
    exit 1
fi
echo "soak: passed ($out)"
