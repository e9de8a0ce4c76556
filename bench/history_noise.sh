#!/usr/bin/env bash
# Real run-to-run spread for the change-point tests: runs one small plan N times against nginx
# (pinned to core 0; tailgate on core 1) and writes each run's measured-stage p50, p90, p99, p99.9,
# throughput and error rate, one JSON object per run, to the file named (default stdout). The
# tests draw the noise of their synthetic series from these runs' spread around their median.
#
#   bash bench/history_noise.sh [RUNS] [OUT.json]   (SECS=N: the measured stage's length, default 4)
#
# QUIET=1 runs nginx and tailgate at the highest CPU weight (nice -n -19), so other work on
# the machine seldom delays them: near the spread of a quiet, dedicated runner. A run that fails is
# left out.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-40}
dest=${2:-/dev/stdout}
out=$(mktemp -d)
chmod 755 "$out" # nginx's worker (user nobody) reads the page
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; [ -n "${KEEP:-}" ] || rm -rf "$out"; }
trap cleanup EXIT
trap "exit 130" INT TERM
command -v nginx >/dev/null || { echo "nginx is not installed (apt-get install -y nginx-light)" >&2; exit 2; }
port=$((18100 + RANDOM % 300))
mkdir -p "$out/www" "$out/logs"
printf 'hello world' >"$out/www/index.html"
cat >"$out/nginx.conf" <<CONF
worker_processes 1;
daemon off;
error_log $out/logs/error.log warn;
pid $out/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 10000000;
  server { listen 127.0.0.1:$port; root $out/www; location / { } }
}
CONF
rt=()
[ -n "${QUIET:-}" ] && rt=(nice -n -19)
# deno itself, not npx: the run is the process measured.
deno_bin=$(npx -y deno@2.9.6 eval "console.log(Deno.execPath())")
"${rt[@]}" taskset -c 0 nginx -c "$out/nginx.conf" -p "$out" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
cat >"$out/plan.yaml" <<PLAN
name: history-noise
target: http://127.0.0.1:$port
requests: [{ path: /index.html }]
load:
  connections: 10
  stages:
    - { name: warmup, rate: 2000/s, duration: 1s, warmup: true }
    - { name: steady, rate: 2000/s, duration: ${SECS:-4}s }
slo: [p99 < 50ms]
PLAN
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for i in $(seq "$runs"); do
  rm -rf "$out/r"
  "${rt[@]}" taskset -c 1 "$deno_bin" task -q tailgate run "$out/plan.yaml" --out "$out/r" \
    >/dev/null 2>"$out/err.txt" || true
  [ -f "$out/r/result.json" ] || { echo "run $i wrote no result: left out: $(tail -c 300 "$out/err.txt")" >&2; continue; }
  python3 - "$out/r/result.json" >>"$out/rows.jsonl" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = [s for s in r["stages"] if not s["warmup"]][0]
p = s["response"]["percentilesUs"]
c = s["counts"]
print(json.dumps({"p50": p["50"], "p90": p["90"], "p99": p["99"], "p99.9": p["99.9"],
                  "throughput": c["completed"] / (s["durationMs"] / 1000),
                  "error_rate": (c["completed"] - c["ok"]) / max(1, c["completed"])}))
PY
done
python3 -c "import json, sys; print(json.dumps([json.loads(l) for l in open(sys.argv[1])], indent=0))" \
  "$out/rows.jsonl" >"$dest"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
