#!/usr/bin/env bash
# How far a load generator on this stack can go, beside its peers, in the same rounds, tools
# alternating, the server on core 0, every client on core 1.
# At fixed rates, CPU per request against nginx (one worker), as the yardstick runs it:
#   c-floor      bench/floor/floor_client.c: one connection, sleep to each fire time, send, read
#   deno-floor   bench/floor/floor_client.ts: the same loop in Deno through the same libc calls
#   tailgate     a real run: the yardstick's plan (50 connections, 2 s warmup, --secs measured)
#   oha          oha -c 50 --latency-correction at the same rate
# The floor clients wake once per request (`--wakes 1`, the response read just before the next
# send, as tailgate's deferred reads do) or twice (`--wakes 2`). CPU per request = the process's
# user + system time over the requests it made; a floor client's includes its start-up (printed
# on its own: an empty Deno process).
# At peak (--peak-secs > 0), requests a second over 50 connections against bench/servers/
# hello_epoll.c (nginx's one worker saturates first): wrk -t1 -c50 and both floor clients' closed
# loop (tailgate's own peak: bench/peers_compare.ts --only peak).
# Prints each round, then the medians and same-round ratios, and the load average.
#
#   bash bench/floor/stack_floor.sh [--rates 1000,2000,5000] [--secs 10] [--rounds 3] [--wakes 1]
#                                   [--peak-secs 5]
#
# Run it from the project's root. Needs nginx, cc, oha (~/.cargo/bin or PATH), wrk. Loads only
# 127.0.0.1; every run is bounded by its count or its seconds; stops only the servers it started.
set -euo pipefail
rates=1000,2000,5000 secs=10 rounds=3 wakes=1 peak_secs=5
while (($#)); do
  case "$1" in
    --rates) rates=$2; shift 2 ;;
    --secs) secs=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --wakes) wakes=$2; shift 2 ;;
    --peak-secs) peak_secs=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
root=$(pwd)
[[ -f $root/cli.ts ]] || { echo "run it from the project's root" >&2; exit 2; }
DENO=$(npx -y deno@2.9.6 eval 'console.log(Deno.execPath())' | tail -1)
OHA=$(command -v oha || echo "$HOME/.cargo/bin/oha")
out=$(mktemp -d /tmp/stack_floor.XXXXXX)
chmod 755 "$out"
port=$((18600 + $$ % 90))
mkdir -p "$out/www" "$out/logs"
echo "hello world" >"$out/www/index.html"
cat >"$out/nginx.conf" <<EOF
worker_processes 1; daemon off; error_log $out/logs/e.log warn; pid $out/nginx.pid;
events { worker_connections 4096; }
http { access_log off; keepalive_requests 10000000; keepalive_timeout 300s;
  server { listen 127.0.0.1:$port; root $out/www; location / { } } }
EOF
taskset -c 0 nginx -c "$out/nginx.conf" -p "$out" >/dev/null 2>&1 &
servers=$!
cc -O2 -o "$out/floor_client" "$root/bench/floor/floor_client.c"
cc -O2 -o "$out/hello_epoll" "$root/bench/servers/hello_epoll.c"
taskset -c 0 "$out/hello_epoll" $((port + 1)) >/dev/null 2>&1 &
servers="$servers $!"
trap 'kill $servers 2>/dev/null' EXIT
for p in $port $((port + 1)); do
  for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null && break; sleep 0.1; done
done

# cpu_ms COMMAND...: the command's user + system CPU (ms), on core 1.
cpu_ms() {
  /usr/bin/time -f "%U %S" -o "$out/time" taskset -c 1 "$@" >"$out/stdout" 2>"$out/stderr" ||
    { echo "failed: $* ($(tail -1 "$out/stderr"))" >&2; exit 1; }
  awk '{ printf "%.0f", ($1 + $2) * 1000 }' "$out/time"
}
tailgate_run() { # rate: prints "CPU_MS COMPLETED"
  cat >"$out/plan.yaml" <<EOF
name: stack-floor
target: http://127.0.0.1:$port
requests: [{ path: /index.html }]
load:
  connections: 50
  stages:
    - { rate: $1/s, duration: 2s, warmup: true }
    - { rate: $1/s, duration: ${secs}s }
EOF
  rm -rf "$out/tg"
  local ms
  ms=$(cpu_ms "$DENO" run --v8-flags=--min-semi-space-size=16,--max-semi-space-size=16 -A \
    "$root/cli.ts" run "$out/plan.yaml" --out "$out/tg" --report json --no-baseline)
  echo "$ms $(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['totals']['counts']['completed'])" "$out/tg/result.json")"
}

empty=$(echo 'console.log(0)' >"$out/empty.ts" && cpu_ms "$DENO" run "$out/empty.ts")
echo "# an empty Deno process: $empty ms of CPU; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# rate round: CPU us/request of c-floor deno-floor tailgate oha (floor clients: --wakes $wakes)"
for rate in ${rates//,/ }; do
  n=$((rate * secs))
  for round in $(seq "$rounds"); do
    c=$(cpu_ms "$out/floor_client" open "$port" "$rate" "$n" "$wakes")
    d=$(cpu_ms "$DENO" run --allow-ffi "$root/bench/floor/floor_client.ts" open "$port" "$rate" "$n" \
      "$wakes")
    read -r t tn < <(tailgate_run "$rate")
    o=$(cpu_ms "$OHA" -n "$n" -q "$rate" -c 50 --latency-correction --no-tui --output-format json \
      "http://127.0.0.1:$port/index.html")
    echo "$rate $round $(python3 -c "print(' '.join(f'{v:.1f}' for v in ($c*1e3/$n, $d*1e3/$n, $t*1e3/$tn, $o*1e3/$n)))")"
  done
done | tee "$out/rounds.txt"
python3 - "$out/rounds.txt" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l[0].isdigit()]
print("\n| rate | C floor | Deno floor | tailgate | oha | Deno floor / oha | tailgate / oha |")
print("|---|---|---|---|---|---|---|")
for rate in dict.fromkeys(r[0] for r in rows):
    rs = [[float(v) for v in r[2:]] for r in rows if r[0] == rate]
    med = [statistics.median(col) for col in zip(*rs)]
    ratio = lambda i: statistics.median(r[i] / r[3] for r in rs)
    print(f"| {int(rate)//1000}k/s | {med[0]:.1f} | {med[1]:.1f} | {med[2]:.1f} | {med[3]:.1f} "
          f"| {ratio(1):.2f} | {ratio(2):.2f} |")
PY
((peak_secs > 0)) || { echo "# load $(cut -d' ' -f1-3 /proc/loadavg); raw in $out"; exit 0; }
echo "# peak round: requests/s of wrk c-floor deno-floor (50 connections, ${peak_secs}s each)"
hello=http://127.0.0.1:$((port + 1))/
for round in $(seq "$rounds"); do
  w=$(taskset -c 1 wrk -t1 -c50 -d"${peak_secs}s" "$hello" | awk '/Requests\/sec/ { print $2 }')
  c=$(taskset -c 1 "$out/floor_client" peak $((port + 1)) 50 "$peak_secs" | cut -d' ' -f1)
  d=$(taskset -c 1 "$DENO" run --allow-ffi "$root/bench/floor/floor_client.ts" peak $((port + 1)) \
    50 "$peak_secs" | cut -d' ' -f1)
  echo "peak $round $w $c $d"
done | tee "$out/peak.txt"
python3 - "$out/peak.txt" <<'PY'
import statistics, sys
rs = [[float(v) for v in l.split()[2:]] for l in open(sys.argv[1]) if l.startswith("peak")]
med = [statistics.median(col) for col in zip(*rs)]
print("\n| peak, 50 connections | wrk | C floor | Deno floor | Deno floor / wrk |")
print("|---|---|---|---|---|")
print(f"| requests/s | {med[0]:,.0f} | {med[1]:,.0f} | {med[2]:,.0f} "
      f"| {statistics.median(r[2] / r[0] for r in rs):.2f} |")
PY
echo "# load $(cut -d' ' -f1-3 /proc/loadavg); raw in $out"
