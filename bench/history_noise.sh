#!/usr/bin/env bash
# Real run-to-run spread for the change-point tests: runs one small plan N times against nginx
# (pinned to core 0; tailgate on core 1) and writes each run's measured-stage p50, p90, p99, p99.9,
# throughput and error rate, one JSON object per run, to the file named (default stdout). The
# tests draw the noise of their synthetic series from these runs' spread around their median.
#
#   bash bench/history_noise.sh [RUNS] [OUT.json]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-40}
dest=${2:-/dev/stdout}
out=$(mktemp -d)
chmod 755 "$out" # nginx's worker (user nobody) reads the page
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; [ -n "${KEEP:-}" ] || rm -rf "$out"; }
trap cleanup EXIT INT TERM
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
taskset -c 0 nginx -c "$out/nginx.conf" -p "$out" >/dev/null 2>&1 &
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
    - { name: steady, rate: 2000/s, duration: 4s }
slo: [p99 < 50ms]
PLAN
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
{
  echo "["
  for i in $(seq "$runs"); do
    taskset -c 1 npx -y deno@2.9.6 task -q tailgate run "$out/plan.yaml" --out "$out/r" \
      >/dev/null 2>&1 || true
    python3 - "$out/r/result.json" "$i" "$runs" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = [s for s in r["stages"] if not s["warmup"]][0]
p = s["response"]["percentilesUs"]
c = s["counts"]
row = {"p50": p["50"], "p90": p["90"], "p99": p["99"], "p99.9": p["99.9"],
       "throughput": c["completed"] / (s["durationMs"] / 1000),
       "error_rate": (c["completed"] - c["ok"]) / max(1, c["completed"])}
print(json.dumps(row) + ("," if sys.argv[2] != sys.argv[3] else ""))
PY
  done
  echo "]"
} >"$dest"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
