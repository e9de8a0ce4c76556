#!/usr/bin/env bash
# What templated requests cost: a plan that draws a CSV row (100k rows), a uuid, a counter and an
# int into its path, headers and JSON body, against peers.sh's fixed plan, in the same rounds, with
# the project's yardstick (../shared/bench/peers.sh: nginx on core 0, generators on core 1).
#
#   bash bench/template_cost.sh [--rounds 5] [--secs 15] [--rate 20000] [--conns 50]
#                               [--peak-rounds N (= rounds)] [--peak-rate 200000] [--peak-secs 10]
#                               [--no-peak] [--rows 100000] [--max-load 1.0] [--out DIR]
#                               [--plans fixed,templated | fixed,literal,templated]
#                               [--rev REV | --live]
#
# Run it from the project's root. The code measured is pinned at the start: by default a copy of the
# working tree (committed and uncommitted files, as they are when it starts), with --rev REV a
# `git archive` of that commit, with --live the tree itself (which others may change mid-run).
# peers.sh runs from that copy. Each round runs peers.sh twice, `--rounds 1 --tools tailgate,oha`:
# once with the fixed plan (peers.sh's own `requests: [{ path: /index.html }]`) and once with
# `--plan-extra` (data, vars and a `requests:` section that replaces that request); which goes first
# alternates by round. Then a peak phase, the same alternation at --peak-rate (beyond what tailgate
# can do) comparing the requests completed per second. It prints every run's tailgate and oha rows,
# the per-round templated/fixed ratios and their medians. `--plans fixed,literal,templated` adds a
# control: the templated request's shape (method, headers, JSON body, about the same bytes) with
# literal values, so that templated/literal is what drawing and rendering cost and literal/fixed
# what the bigger request costs. Odd rounds run the plans in the order given, even rounds reversed.
#
# The data file has to lie in the plan's folder, and peers.sh writes its plan into a fresh
# `mktemp -d /tmp/peers.XXXXXX`. So peers.sh runs with a wrapper named `deno` first on PATH (it finds
# deno with `command -v deno`): when TC_CSV is set, the wrapper hard-links (or else copies) the CSV
# beside the `…/plan.yaml` argument, then execs the real deno. Both plans run through the wrapper, so
# its cost (a bash start and one link(2), about 2-3 ms of CPU per run, against 15+ s of load) is
# the same on both sides of every ratio.
#
# Before every peers.sh call it reads /proc/loadavg and, while the 1-minute load is above --max-load,
# waits (30 s at a time, at most 10 minutes), then records the load it ran under. Every peers.sh call
# runs under `timeout` in its own process group, so an overrun is stopped with everything it started.
# Only 127.0.0.1 is loaded. Raw outputs (every peers.sh log and /tmp/peers.* folder) stay in --out.
set -uo pipefail
rounds=5 secs=15 rate=20000 conns=50 peak_rounds="" peak_rate=200000 peak_secs=10 peak=1
rows=100000 max_load=1.0 out="" plans=fixed,templated code=worktree
while (($#)); do
  case $1 in
  --rounds) rounds=$2; shift 2 ;;
  --secs) secs=$2; shift 2 ;;
  --rate) rate=$2; shift 2 ;;
  --conns) conns=$2; shift 2 ;;
  --peak-rounds) peak_rounds=$2; shift 2 ;;
  --peak-rate) peak_rate=$2; shift 2 ;;
  --peak-secs) peak_secs=$2; shift 2 ;;
  --no-peak) peak=0; shift ;;
  --rows) rows=$2; shift 2 ;;
  --max-load) max_load=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --plans) plans=$2; shift 2 ;;
  --rev) code=$2; shift 2 ;;
  --live) code=live; shift ;;
  *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
peak_rounds=${peak_rounds:-$rounds}
root=$(pwd)
[[ -f $root/cli.ts && -f $root/bench/template_cost_data.py ]] || { echo "run it from the project's root" >&2; exit 2; }
PEERS=$(cd "$root/.." && pwd)/shared/bench/peers.sh
[[ -f $PEERS ]] || { echo "cannot find $PEERS" >&2; exit 2; }
if [[ -z $out ]]; then out=$(mktemp -d /tmp/template_cost.XXXXXX); else mkdir -p "$out"; fi
out=$(cd "$out" && pwd)

# The code to measure, pinned.
head=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
case $code in
live)
  tree=$root
  what="the live tree at $head$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo ' + uncommitted changes')" ;;
worktree)
  tree=$out/tree
  mkdir -p "$tree"
  (cd "$root" && git ls-files -z --cached --others --exclude-standard | grep -zv '^\.' |
    tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -x -C "$tree" || exit 2
  dirty=$(git -C "$root" status --short --untracked-files=no | awk '{print $2}' | tr '\n' ' ')
  what="a copy of the working tree at $head${dirty:+ with uncommitted changes to: $dirty}" ;;
*)
  tree=$out/tree
  mkdir -p "$tree"
  git -C "$root" archive "$code" | tar -x -C "$tree" || { echo "cannot archive $code" >&2; exit 2; }
  what="git archive of $(git -C "$root" rev-parse --short "$code")" ;;
esac
[[ -f $tree/cli.ts ]] || { echo "no cli.ts in $tree" >&2; exit 2; }

# The real deno binary (not a wrapper, not npx).
REAL_DENO=$(readlink -f "$(command -v deno 2>/dev/null)" 2>/dev/null)
[[ -x $REAL_DENO ]] || REAL_DENO=$(npx -y deno@2.9.6 eval 'console.log(Deno.execPath())' 2>/dev/null | tail -1)
[[ -x $REAL_DENO ]] || { echo "cannot find deno" >&2; exit 2; }
mkdir -p "$out/bin"
cat >"$out/bin/deno" <<EOF
#!/bin/bash
# peers.sh's deno, for bench/template_cost.sh: puts \$TC_CSV beside the plan, then runs deno.
if [[ -n \${TC_CSV:-} ]]; then
  for a in "\$@"; do
    if [[ \$a == /tmp/peers.*/plan.yaml ]]; then
      ln -f "\$TC_CSV" "\${a%/plan.yaml}/users.csv" 2>/dev/null || cp -f "\$TC_CSV" "\${a%/plan.yaml}/users.csv"
    fi
  done
fi
exec $REAL_DENO "\$@"
EOF
chmod 755 "$out/bin/deno"

# The data file and the plan extras. The request is a GET with a JSON body: nginx answers a POST to
# a static file with 405, which peers.sh's figures would count as errors, and serves a GET with a
# body with 200 (each run's "non-2xx" column below shows it stays 0).
python3 "$root/bench/template_cost_data.py" "$out/users.csv" "$rows" || exit 2
templated_yaml() {
  cat <<'EOF'
data:
  users: { file: users.csv }
vars:
  order_id: uuid
  n: counter
  qty: { int: [1, 20] }
requests:
  - name: templated
    method: GET
    path: "/index.html?u={{users.id}}&n={{n}}"
    headers: { X-Request-Id: "{{order_id}}", X-Qty: "{{qty}}", X-User: "{{users.name}}" }
    body: { json: { id: "{{order_id}}", user: "{{users.id}}", n: "{{n}}", qty: "{{qty}}" } }
EOF
}
# The control: the same shape, every value written out (a uuid, a row of users.csv, n and qty as
# they are a few hundred thousand requests in), so the bytes sent match within a few.
literal_yaml() {
  cat <<'EOF'
requests:
  - name: literal
    method: GET
    path: "/index.html?u=u012345&n=123456"
    headers: { X-Request-Id: "5fdcc23c-1b4a-425a-89f0-aadb53268d42", X-Qty: "12", X-User: "grace-123" }
    body: { json: { id: "5fdcc23c-1b4a-425a-89f0-aadb53268d42", user: "u012345", n: 123456, qty: 12 } }
EOF
}
templated_yaml >"$out/templated.yaml"
literal_yaml >"$out/literal.yaml"
# At the peak the queue holds a million requests or more and the oldest waits 15-40 s: every peak
# plan gets a 120 s timeout so none times out (peers.sh's plan sets none: the default is 10 s).
echo "defaults: { timeout: 120s }" >"$out/fixed_peak.yaml"
{ echo "defaults: { timeout: 120s }"; templated_yaml; } >"$out/templated_peak.yaml"
{ echo "defaults: { timeout: 120s }"; literal_yaml; } >"$out/literal_peak.yaml"
IFS=, read -r -a plan_list <<<"$plans"
for v in "${plan_list[@]}"; do
  [[ $v == fixed || $v == templated || $v == literal ]] || { echo "--plans: fixed, literal, templated" >&2; exit 2; }
done

cur=""
cleanup() { [[ -n $cur ]] && kill -TERM "$cur" 2>/dev/null; }
trap 'cleanup; exit 130' INT TERM
trap cleanup EXIT

load1() { cut -d' ' -f1 /proc/loadavg; }
wait_load() {
  local waited=0
  while python3 -c "import sys; sys.exit(0 if float('$(load1)') > $max_load else 1)" && ((waited < 600)); do
    echo "#   load $(cut -d' ' -f1-3 /proc/loadavg) > $max_load: waiting 30 s" >&2
    sleep 30
    waited=$((waited + 30))
  done
}

# run_peers PHASE ROUND VARIANT POSITION BOUND_S PEERS_ARGS...: one peers.sh call, one TSV row.
run_peers() {
  local phase=$1 round=$2 variant=$3 pos=$4 bound=$5
  shift 5
  wait_load
  local load log="$out/${phase}_r${round}_${variant}.log" csv=""
  load=$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' /)
  [[ $variant == templated ]] && csv=$out/users.csv
  echo "# $(date +%T) $phase round $round: $variant ($pos), load $load" >&2
  (cd "$tree" && PATH="$out/bin:$PATH" TC_CSV=$csv exec timeout -k 10 "$bound" bash "$PEERS" --rounds 1 --tools tailgate,oha \
    --conns "$conns" "$@") >"$log" 2>&1 &
  cur=$!
  wait "$cur"
  local rc=$?
  cur=""
  local tg oha raw
  tg=$(grep -m1 '^tailgate 1 ' "$log" | cut -d' ' -f3-)
  oha=$(grep -m1 '^oha 1 ' "$log" | cut -d' ' -f3-)
  raw=$(sed -n 's/.*raw outputs in \(.*\)$/\1/p' "$log" | tail -1)
  [[ -n $tg ]] || tg="- - - - 0 0"
  [[ -n $oha ]] || oha="- - - - 0 0"
  echo "$phase $round $variant $pos $load $rc ${raw:--} $tg $oha" >>"$out/runs.txt"
  echo "#   tailgate $tg | oha $oha | rc $rc" >&2
}

{
  echo "# template_cost $(date -u +%FT%TZ); code: $what"
  echo "# machine: $(nproc) vCPUs, $(lscpu | sed -n 's/^Model name: *//p' | head -1), Linux $(uname -r)"
  echo "# $(nginx -v 2>&1), $("$REAL_DENO" --version | head -1), $("$(command -v oha || echo "$HOME/.cargo/bin/oha")" --version 2>/dev/null)"
  echo "# load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# plans: $plans (odd rounds in this order, even rounds reversed)"
  echo "# fixed rate: $rounds rounds, peers.sh --rounds 1 --rate $rate --secs $secs --conns $conns --tools tailgate,oha"
  ((peak)) && echo "# peak: $peak_rounds rounds, --rate $peak_rate --secs $peak_secs --conns $conns (120 s timeout)"
  echo "# data: $out/users.csv ($rows rows, md5 $(md5sum <"$out/users.csv" | cut -c1-12)); raw outputs in $out"
} | tee "$out/header.txt"
: >"$out/runs.txt"

order_of() { # the plans of round $1: as given in odd rounds, reversed in even ones
  order=("${plan_list[@]}")
  if (($1 % 2 == 0)); then
    local i rev=()
    for ((i = ${#plan_list[@]} - 1; i >= 0; i--)); do rev+=("${plan_list[$i]}"); done
    order=("${rev[@]}")
  fi
}
for r in $(seq "$rounds"); do
  order_of "$r"
  for i in "${!order[@]}"; do
    v=${order[$i]}
    args=(--rate "$rate" --secs "$secs")
    [[ $v != fixed ]] && args+=(--plan-extra "$out/$v.yaml")
    run_peers rate "$r" "$v" $((i + 1)) $((secs * 2 + 120)) "${args[@]}"
  done
done
if ((peak)); then
  for r in $(seq "$peak_rounds"); do
    order_of "$r"
    for i in "${!order[@]}"; do
      v=${order[$i]}
      run_peers peak "$r" "$v" $((i + 1)) $((peak_secs * 10 + 240)) \
        --rate "$peak_rate" --secs "$peak_secs" --plan-extra "$out/${v}_peak.yaml"
    done
  done
fi
{
  echo "# $(date -u +%FT%TZ) load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
  [[ $code == live && $(git -C "$root" rev-parse --short HEAD) != "$head" ]] &&
    echo "# WARNING: HEAD moved from $head to $(git -C "$root" rev-parse --short HEAD) during the run"
} | tee -a "$out/header.txt"

python3 - "$out/runs.txt" <<'PY' | tee "$out/summary.md"
import glob, json, sys, statistics as st

runs = []
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 19: continue
    phase, rnd, var, pos, load, rc, raw = f[:7]
    num = lambda x: float("nan") if x == "-" else float(x)
    tg = dict(zip(("p50", "p99", "p999", "max", "n", "cpu"), map(num, f[7:13])))
    oha = dict(zip(("p50", "p99", "p999", "max", "n", "cpu"), map(num, f[13:19])))
    res = {}
    files = glob.glob(f"{raw}/tg1/*.json")
    if files:
        d = json.load(open(files[0]))
        stages = d["stages"]
        ok = sum(s["counts"]["ok"] for s in stages)
        done = sum(s["counts"]["completed"] for s in stages)
        sent = sum(s["counts"].get("bytesSent", 0) for s in stages)
        codes = {}
        for s in stages:
            for k, v in s["counts"]["statusCodes"].items(): codes[k] = codes.get(k, 0) + v
        res = dict(ok=ok, done=done, codes=codes, bytes=sent / max(done, 1),
                   rps=ok / (d["run"]["durationMs"] / 1000), dur=d["run"]["durationMs"] / 1000,
                   lag99=d["health"]["sendLag"]["percentilesUs"]["99"],
                   late=(d.get("traffic") or {}).get("lateRenders", "-"))
    try:
        oj = json.load(open(f"{raw}/oha1.json"))
        oha["rps"] = sum(oj["statusCodeDistribution"].values()) / oj["summary"]["total"]
    except Exception:
        oha["rps"] = float("nan")
    runs.append(dict(phase=phase, round=int(rnd), var=var, pos=pos, load=load, rc=rc, tg=tg, oha=oha, res=res))

def fmt(x, d=0):
    return "-" if x != x else f"{x:,.{d}f}"

def med(xs):
    xs = [x for x in xs if x == x]
    return st.median(xs) if xs else float("nan")

def get(phase, r, v):
    for x in runs:
        if x["phase"] == phase and x["round"] == r and x["var"] == v: return x

print("\n## Every run (tailgate's measured stage; CPU/request over every request it completed)\n")
print("| phase | round | plan | order | load 1/5/15 | p50 µs | p99 µs | p99.9 µs | max µs | CPU µs/req | ok / completed | non-2xx | late renders | bytes/req | req/s | oha p50 | oha p99.9 | oha CPU | CPU / oha | p99.9 / oha |")
print("|---|--:|---|--:|---|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
for x in runs:
    t, o, s = x["tg"], x["oha"], x["res"]
    non2xx = sum(v for k, v in s.get("codes", {}).items() if not k.startswith("2")) if s else "-"
    print(f"| {x['phase']} | {x['round']} | {x['var']} | {x['pos']} | {x['load']} | {fmt(t['p50'])} | {fmt(t['p99'])} | {fmt(t['p999'])} | {fmt(t['max'])} | {fmt(t['cpu'], 1)} | "
          f"{s.get('ok', '-'):,} / {s.get('done', '-'):,} | {non2xx} | {s.get('late', '-')} | {fmt(s.get('bytes', float('nan')))} | {fmt(s.get('rps', float('nan')))} | "
          f"{fmt(o['p50'])} | {fmt(o['p999'])} | {fmt(o['cpu'], 1)} | {t['cpu'] / o['cpu']:.2f} | {t['p999'] / o['p999']:.2f} |")

def rate_table(num, den, primary):
    rounds = sorted({x["round"] for x in runs if x["phase"] == "rate"})
    rows = [(r, get("rate", r, den), get("rate", r, num)) for r in rounds]
    rows = [(r, f, t) for r, f, t in rows if f and t]
    if not rows: return
    print(f"\n## At the fixed rate: {num} / {den}, same round\n")
    print(f"| round | first | CPU µs/req {den} → {num} | CPU ratio | p99.9 µs {den} → {num} | p99.9 ratio | p50 ratio | p99 ratio | CPU / oha {den}, {num} | p99.9 / oha {den}, {num} |")
    print("|--:|---|---|--:|---|--:|--:|--:|---|---|")
    R = {k: [] for k in ("cpu", "p999", "p50", "p99", "fo_cpu", "to_cpu", "fo_p999", "to_p999")}
    for r, f, t in rows:
        rat = {k: t["tg"][k] / f["tg"][k] for k in ("cpu", "p999", "p50", "p99")}
        for k, v in rat.items(): R[k].append(v)
        fo = {k: f["tg"][k] / f["oha"][k] for k in ("cpu", "p999")}
        to = {k: t["tg"][k] / t["oha"][k] for k in ("cpu", "p999")}
        R["fo_cpu"].append(fo["cpu"]); R["to_cpu"].append(to["cpu"]); R["fo_p999"].append(fo["p999"]); R["to_p999"].append(to["p999"])
        first = den if int(f["pos"]) < int(t["pos"]) else num
        print(f"| {r} | {first} | {f['tg']['cpu']:.1f} → {t['tg']['cpu']:.1f} | {rat['cpu']:.3f} | {fmt(f['tg']['p999'])} → {fmt(t['tg']['p999'])} | {rat['p999']:.3f} | {rat['p50']:.3f} | {rat['p99']:.3f} | "
              f"{fo['cpu']:.2f}, {to['cpu']:.2f} | {fo['p999']:.2f}, {to['p999']:.2f} |")
    m = {k: med(v) for k, v in R.items()}
    print(f"| **median** | | | **{m['cpu']:.3f}** | | **{m['p999']:.3f}** | **{m['p50']:.3f}** | **{m['p99']:.3f}** | {m['fo_cpu']:.2f}, {m['to_cpu']:.2f} | {m['fo_p999']:.2f}, {m['to_p999']:.2f} |")
    if primary:
        verdict = lambda v, lim: "met" if v <= lim else f"MISSED by {(v - lim) * 100:.1f} points"
        print(f"\nCPU/request: {num} {m['cpu']:.3f}x {den}: {verdict(m['cpu'], 1.10)} (target <= 1.10)")
        print(f"p99.9:       {num} {m['p999']:.3f}x {den}: {verdict(m['p999'], 1.10)} (target <= 1.10)")

def peak_table(num, den, primary):
    rounds = sorted({x["round"] for x in runs if x["phase"] == "peak"})
    rows = [(r, get("peak", r, den), get("peak", r, num)) for r in rounds]
    rows = [(r, f, t) for r, f, t in rows if f and t and f["res"] and t["res"]]
    if not rows: return
    print(f"\n## Peak, same round: {num} / {den}, requests completed per second (2xx / run duration)\n")
    print(f"| round | first | {den} req/s | {num} req/s | {num} / {den} | CPU µs/req {den} → {num} | run s {den}, {num} | oha req/s ({den}'s, {num}'s call) |")
    print("|--:|---|--:|--:|--:|---|---|---|")
    P = []
    for r, f, t in rows:
        p = t["res"]["rps"] / f["res"]["rps"]
        P.append(p)
        first = den if int(f["pos"]) < int(t["pos"]) else num
        print(f"| {r} | {first} | {f['res']['rps']:,.0f} | {t['res']['rps']:,.0f} | {p:.3f} | {f['tg']['cpu']:.1f} → {t['tg']['cpu']:.1f} | {f['res']['dur']:.1f}, {t['res']['dur']:.1f} | {fmt(f['oha']['rps'])}, {fmt(t['oha']['rps'])} |")
    mp = med(P)
    print(f"| **median** | | | | **{mp:.3f}** | | | |")
    if primary:
        print(f"\nPeak: {num} {mp:.3f}x {den}: {'met' if mp >= 0.90 else f'MISSED by {(0.90 - mp) * 100:.1f} points'} (target >= 0.90)")

present = {x["var"] for x in runs}
pairs = [("templated", "fixed", True), ("templated", "literal", False), ("literal", "fixed", False)]
for num, den, primary in pairs:
    if num in present and den in present: rate_table(num, den, primary)
for num, den, primary in pairs:
    if num in present and den in present: peak_table(num, den, primary)
PY
