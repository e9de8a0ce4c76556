#!/usr/bin/env bash
# What response checks cost per request: the same request to the same server, three ways, in
# alternating rounds: no checks (`plain`), one check that keeps the response but reads only its
# length (`keep`: `max_bytes`), and six checks (`checked`: status, a header pattern, two JSON
# pointers, a body string, max_bytes). Each run is 2 s of warmup and 10 s at --rate, tailgate on
# core 1, the server (bench/servers/hello_epoll.c answering a 23-byte JSON body) on core 0. Prints
# each run's own CPU figure (`health.cpu.perRequestUs`: the process's user + system CPU over the
# requests completed) and the load average after it.
#
#   bash bench/check_cost.sh [--rounds 3] [--rate 2000] [--port 18391]
#
# Run it from the project's root.
set -euo pipefail
rounds=3 rate=2000 port=18391
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
dir=$(mktemp -d /tmp/check_cost.XXXXXX)
body='{"state":"open","id":7}'
sed "s|Content-Length: 6\\\\r\\\\nContent-Type: text/plain\\\\r\\\\n\\\\r\\\\nhello\\\\n|Content-Length: ${#body}\\\\r\\\\nContent-Type: application/json\\\\r\\\\n\\\\r\\\\n{\\\\\"state\\\\\":\\\\\"open\\\\\",\\\\\"id\\\\\":7}|" \
  bench/servers/hello_epoll.c > "$dir/json_epoll.c"
grep -q application/json "$dir/json_epoll.c" || { echo "the server's response was not replaced" >&2; exit 1; }
cc -O2 -o "$dir/json_epoll" "$dir/json_epoll.c"
taskset -c 0 "$dir/json_epoll" "$port" & server=$!
trap 'kill $server' EXIT
sleep 0.3
plan() { # name, check (YAML flow mapping or empty)
  cat <<PLAN
name: check-cost-$1
target: http://127.0.0.1:$port
requests:
  - { name: GET /, path: /${2:+, check: $2} }
load:
  connections: 20
  stages:
    - { rate: $rate/s, duration: 2s, warmup: true }
    - { rate: $rate/s, duration: 10s }
PLAN
}
plan plain "" > "$dir/plain.yaml"
plan keep "{ max_bytes: 4096 }" > "$dir/keep.yaml"
plan checked "{ status: 200, header: { content-type: json }, json: { /state: open, /id: exists }, body: { contains: open }, max_bytes: 4096 }" > "$dir/checked.yaml"
for round in $(seq "$rounds"); do
  for kind in plain keep checked; do
    out="$dir/out-$kind-$round"
    taskset -c 1 deno run -A cli.ts run "$dir/$kind.yaml" --out "$out" --no-baseline \
      --report json --no-color > /dev/null 2>&1 || true
    python3 - "$out" "$kind" "$round" <<'PY'
import glob, json, sys
r = json.load(open(glob.glob(sys.argv[1] + "/**/result.json", recursive=True)[0]))
c = r["totals"]["counts"]
print(f"round {sys.argv[3]} {sys.argv[2]:8} perRequestUs {r['health']['cpu']['perRequestUs']:7.2f}"
      f"  completed {c['completed']} ok {c['ok']} errors {c['errors']}"
      f"  load {open('/proc/loadavg').read().split()[0]}")
PY
  done
done
