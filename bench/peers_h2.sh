#!/usr/bin/env bash
# The yardstick for tailgate's HTTP/2 and TLS engine (issue 33): tailgate beside `oha --http2` at
# one rate, against nginx speaking h2c (`listen ... http2`, prior knowledge) or h2 over TLS
# (`listen ... ssl http2`, a certificate made for the run), tools alternating, several rounds, one
# table, as ../shared/bench/peers.sh does for plain HTTP/1.1 (wrk2 speaks no HTTP/2). Both tools
# use the same connections and the same streams per connection (tailgate's load.max_streams, oha's
# -p). `--proto https` is HTTP/1.1 over TLS (`listen ... ssl`, both tools without HTTP/2, one
# request per connection at a time; --streams is ignored). It only ever loads 127.0.0.1 and stops
# what it started by PID.
#
#   bash bench/peers_h2.sh [--proto h2c|h2|https] [--rate 5000] [--secs 15] [--rounds 3]
#                          [--conns 10] [--streams 10]
#
# Run it from the project's root. nginx on core 0, each generator on core 1 (taskset). tailgate runs
# a 2 s warmup stage at the same rate and is read on its measured stage; oha runs secs+2 s and is
# read whole. CPU per request = the generator's user+system time (/usr/bin/time) over every
# request it completed, start-up included. Needs nginx (apt-get install -y nginx-light), openssl
# for h2, and oha (cargo install oha --locked).
set -uo pipefail
proto=h2c rate=5000 secs=15 rounds=3 conns=10 streams=10
while (($#)); do
  case $1 in
  --proto) proto=$2; shift 2 ;;
  --rate) rate=$2; shift 2 ;;
  --secs) secs=$2; shift 2 ;;
  --rounds) rounds=$2; shift 2 ;;
  --conns) conns=$2; shift 2 ;;
  --streams) streams=$2; shift 2 ;;
  *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
root=$(pwd)
[[ -f $root/cli.ts ]] || { echo "run it from the project's root" >&2; exit 2; }
command -v nginx >/dev/null || { echo "nginx is not installed (apt-get install -y nginx-light)" >&2; exit 2; }
OHA=$(command -v oha || echo "$HOME/.cargo/bin/oha")
[[ -x $OHA ]] || { echo "oha is not installed (cargo install oha --locked)" >&2; exit 2; }
out=$(mktemp -d /tmp/peers_h2.XXXXXX) && chmod 755 "$out"
# The deno binary itself (not npx, whose own start-up would be counted in tailgate's CPU per request).
DENO=$(command -v deno || npx -y deno@2.9.6 eval 'console.log(Deno.execPath())' 2>/dev/null | tail -1)
[[ -x $DENO ]] || { echo "cannot find deno (npx -y deno@2.9.6 must work)" >&2; exit 2; }
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; }
trap cleanup EXIT INT TERM
port=$((18500 + RANDOM % 400))
mkdir -p "$out/www" "$out/logs"
printf 'hello world' >"$out/www/index.html"
case $proto in
h2c) listen="listen 127.0.0.1:$port http2;" scheme=http tls_tg="" tls_oha=() ;;
h2 | https)
  # A CA of the run's own and a server certificate it signed (rustls refuses a CA as the server's).
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$out/ca.key" -out "$out/ca.pem" -days 1 \
    -subj /CN=peers-h2-ca -addext basicConstraints=critical,CA:TRUE >/dev/null 2>&1 || exit 2
  openssl req -newkey rsa:2048 -nodes -keyout "$out/key.pem" -out "$out/server.csr" \
    -subj /CN=127.0.0.1 >/dev/null 2>&1 || exit 2
  printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n' >"$out/ext.cnf"
  openssl x509 -req -in "$out/server.csr" -CA "$out/ca.pem" -CAkey "$out/ca.key" -CAcreateserial \
    -out "$out/cert.pem" -days 1 -extfile "$out/ext.cnf" >/dev/null 2>&1 || exit 2
  chmod 644 "$out/key.pem"
  http2=" http2"
  [[ $proto == https ]] && http2=""
  listen="listen 127.0.0.1:$port ssl$http2; ssl_certificate $out/cert.pem; ssl_certificate_key $out/key.pem;"
  scheme=https tls_tg="--ca-cert $out/ca.pem" tls_oha=(--insecure)
  ;;
*) echo "--proto h2c|h2|https" >&2; exit 2 ;;
esac
cat >"$out/nginx.conf" <<EOF
worker_processes 1;
daemon off;
error_log $out/logs/error.log warn;
pid $out/nginx.pid;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 10000000;
  keepalive_timeout 300s;
  http2_max_requests 10000000;
  server { $listen root $out/www; location / { } }
}
EOF
taskset -c 0 nginx -c "$out/nginx.conf" -p "$out" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
url=$scheme://127.0.0.1:$port/index.html
cat >"$out/plan.yaml" <<EOF
name: peers-$proto
target: $scheme://127.0.0.1:$port
requests: [{ path: /index.html }]
load:
$([[ $proto == https ]] || printf '  http: 2\n  max_streams: %s' "$streams")
  connections: $conns
  stages:
    - { rate: $rate/s, duration: 2s, warmup: true }
    - { rate: $rate/s, duration: ${secs}s }
EOF

run_tailgate() {
  # shellcheck disable=SC2086 # tls_tg is empty or two words
  /usr/bin/time -f "%U %S" -o "$out/t_tg_$1" taskset -c 1 "$DENO" run \
    --v8-flags=--min-semi-space-size=16,--max-semi-space-size=16 -A "$root/cli.ts" run "$out/plan.yaml" \
    --out "$out/tg$1" --report json --no-baseline $tls_tg >"$out/tg$1.log" 2>&1
  python3 - "$out" "$1" <<'PY'
import json, sys, glob
o, r = sys.argv[1], sys.argv[2]
files = glob.glob(f"{o}/tg{r}/*.json")
if not files:
    print(f"tailgate {r} - - - - 0 0 0 no-result"); sys.exit()
d = json.load(open(files[0]))
s = [x for x in d["stages"] if not x["warmup"]][0]
p = s["response"]["percentilesUs"]
n = sum(x["counts"]["completed"] for x in d["stages"])
ok = sum(x["counts"]["ok"] for x in d["stages"])
u, sy = map(float, open(f"{o}/t_tg_{r}").read().split()[-2:])
print(f"tailgate {r} {p['50']:.0f} {p['99']:.0f} {p['99.9']:.0f} {s['response'].get('maxUs', 0):.0f} {n} {(u + sy) * 1e6 / max(n, 1):.1f} {n - ok}")
PY
}
h2_oha=(-p "$streams" --http2)
[[ $proto == https ]] && h2_oha=()
run_oha() {
  /usr/bin/time -f "%U %S" -o "$out/t_oha_$1" taskset -c 1 "$OHA" -z "$((secs + 2))s" -q "$rate" -c "$conns" \
    "${h2_oha[@]}" "${tls_oha[@]}" --latency-correction --no-tui --output-format json "$url" \
    >"$out/oha$1.json" 2>/dev/null
  python3 - "$out" "$1" <<'PY'
import json, sys
o, r = sys.argv[1], sys.argv[2]
d = json.load(open(f"{o}/oha{r}.json")); p = d["latencyPercentiles"]
n = sum(d["statusCodeDistribution"].values())
errors = sum(d.get("errorDistribution", {}).values()) + n - d["statusCodeDistribution"].get("200", 0)
u, sy = map(float, open(f"{o}/t_oha_{r}").read().split()[-2:])
print(f"oha {r} {p['p50']*1e6:.0f} {p['p99']*1e6:.0f} {p['p99.9']*1e6:.0f} {d['summary']['slowest']*1e6:.0f} {n} {(u + sy) * 1e6 / max(n, 1):.1f} {errors}")
PY
}
shape="$conns connections x $streams streams"
[[ $proto == https ]] && shape="$conns connections, HTTP/1.1"
echo "# $proto, nginx, $rate/s, ${secs}s measured, $shape, $rounds rounds; load $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$out/rows"
for r in $(seq "$rounds"); do
  order=(tailgate oha)
  ((r % 2 == 0)) && order=(oha tailgate)
  for t in "${order[@]}"; do "run_$t" "$r" | tee -a "$out/rows"; done
done
echo "# end load $(cut -d' ' -f1-3 /proc/loadavg); raw outputs in $out"
python3 - "$out/rows" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
by = {}
for t, r, *v in rows:
    if v[0] == "-": continue
    by.setdefault(t, {})[r] = dict(p50=float(v[0]), p99=float(v[1]), p999=float(v[2]), max=float(v[3]), cpu=float(v[5]), errors=int(v[6]))
print("| tool | p50 us | p99 us | p99.9 us | max us | CPU us/req | errors | p50 / oha | p99.9 / oha | CPU / oha |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for t in ("tailgate", "oha"):
    if t not in by: continue
    m = lambda k: st.median(x[k] for x in by[t].values())
    rat = lambda k: (st.median(by[t][r][k] / by["oha"][r][k] for r in by[t] if r in by.get("oha", {})) if "oha" in by else float("nan"))
    print(f"| {t} | {m('p50'):.0f} | {m('p99'):.0f} | {m('p999'):.0f} | {m('max'):.0f} | {m('cpu'):.1f} | {sum(x['errors'] for x in by[t].values())} | {rat('p50'):.2f} | {rat('p999'):.2f} | {rat('cpu'):.2f} |")
print("(medians over rounds; ratios are medians of same-round ratios; errors summed over rounds)")
PY
