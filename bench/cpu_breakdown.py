#!/usr/bin/env python3
"""Where a generator's CPU goes, by thread: tailgate beside oha at fixed rates against nginx.

    python3 bench/cpu_breakdown.py [--rates 2000,5000,20000] [--secs 10] [--rounds 2] [--neighbour 0]

Run from the project's root. nginx (one worker) on core 0, each generator on core 1, tools
alternating. While a generator runs, every thread's user and system time and its voluntary and
involuntary context switches are sampled from /proc/PID/task/*/ every 200 ms; the last sample
before exit is kept. Threads are grouped by name (tokio workers, V8 platform threads, each Worker).
Printed per tool and rate: CPU µs per request split by thread group, context switches (wake-ups)
per request, the latency percentiles each tool reports (tailgate's measured stage, oha's whole
run), and the whole process's start-up: CPU and wall time of a run of one request.

--neighbour PCT runs a noisy neighbour beside every generator run: a busy loop on the generator's
core (core 1) for PCT% of every 10 ms, bounded to the run's length (a second past it at most).
Both tools meet the same neighbour in the same rounds; start-up is then not measured.
Every load is bounded (--secs per run) and only 127.0.0.1 is loaded; nginx and the neighbour are
stopped by their PIDs.
"""
import glob, json, os, re, shutil, subprocess, sys, tempfile, time
from collections import defaultdict

args = dict(rates="2000,5000,20000", secs="10", rounds="2", conns="50", neighbour="0")
argv = sys.argv[1:]
while argv:
    k, v, argv = argv[0].lstrip("-"), argv[1], argv[2:]
    args[k] = v
rates = [int(r) for r in args["rates"].split(",")]
secs, rounds, conns = int(args["secs"]), int(args["rounds"]), int(args["conns"])
neighbour_pct = int(args["neighbour"])
assert 0 <= neighbour_pct < 100, "--neighbour is a percentage of the core, 0-99"
root = os.getcwd()
assert os.path.exists(os.path.join(root, "cli.ts")), "run it from the project's root"
deno = subprocess.run(["npx", "-y", "deno@2.9.6", "eval", "console.log(Deno.execPath())"],
                      capture_output=True, text=True).stdout.strip().splitlines()[-1]
oha = shutil.which("oha") or os.path.expanduser("~/.cargo/bin/oha")
tick = os.sysconf("SC_CLK_TCK")
out = tempfile.mkdtemp(prefix="cpu_breakdown.")
os.chmod(out, 0o755)  # nginx's worker (another user) reads www/ below it: else every answer is a 403
port = 18900 + os.getpid() % 90

os.makedirs(f"{out}/www"); os.makedirs(f"{out}/logs")
open(f"{out}/www/index.html", "w").write("hello world")
open(f"{out}/nginx.conf", "w").write(f"""worker_processes 1; daemon off; error_log {out}/logs/e.log warn;
pid {out}/nginx.pid; events {{ worker_connections 4096; }}
http {{ access_log off; keepalive_requests 10000000; keepalive_timeout 300s;
server {{ listen 127.0.0.1:{port}; root {out}/www; location / {{ }} }} }}""")
nginx = subprocess.Popen(["taskset", "-c", "0", "nginx", "-c", f"{out}/nginx.conf", "-p", out],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def group(name):
    name = name.strip()
    if name.startswith("worker") or name.startswith("deno"):
        return name  # each Worker thread on its own: engine, timing, hiccup, encoder
    name = re.sub(r"[-_ #]?\d+$", "", name)
    return {"tokio-runtime-w": "tokio", "V8 DefaultWork": "v8-platform", "V8 DefaultWorke": "v8-platform"}.get(name, name)


def sample(pid, last):
    for task in glob.glob(f"/proc/{pid}/task/*"):
        try:
            comm = open(f"{task}/comm").read()
            f = open(f"{task}/stat").read().rsplit(")", 1)[1].split()
            st = open(f"{task}/status").read()
        except OSError:
            continue
        vol = int(re.search(r"voluntary_ctxt_switches:\s+(\d+)", st).group(1))
        invol = int(re.search(r"nonvoluntary_ctxt_switches:\s+(\d+)", st).group(1))
        last[task] = (group(comm), (int(f[11]) + int(f[12])) / tick, vol, invol)


# The neighbour: busy for PCT% of every 10 ms period, idle the rest, until its deadline.
NEIGHBOUR = """import sys, time
busy, end = float(sys.argv[1]) / 100 * 0.01, time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    t = time.monotonic()
    while time.monotonic() - t < busy: pass
    time.sleep(max(0.0, 0.01 - busy))
"""


def start_neighbour(seconds):
    if neighbour_pct == 0:
        return None
    return subprocess.Popen(["taskset", "-c", "1", sys.executable, "-c", NEIGHBOUR,
                             str(neighbour_pct), str(seconds)])


def run(cmd, bound_s=None):
    """Runs cmd on core 1 (beside the neighbour, if any, for at most bound_s); returns its
    thread groups, wall time, whole-process CPU and stdout."""
    t0 = time.monotonic()
    stdout = open(f"{out}/stdout", "w+")
    neighbour = start_neighbour(bound_s) if bound_s else None
    p = subprocess.Popen(["taskset", "-c", "1"] + cmd, stdout=stdout, stderr=subprocess.DEVNULL)
    last = {}
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid != 0:
            break
        sample(p.pid, last)
        time.sleep(0.2)
    wall = time.monotonic() - t0
    if neighbour is not None:
        neighbour.kill()
        neighbour.wait()
    groups = defaultdict(lambda: [0.0, 0, 0])
    for g, cpu, vol, invol in last.values():
        groups[g][0] += cpu; groups[g][1] += vol; groups[g][2] += invol
    stdout.seek(0)
    return groups, wall, usage.ru_utime + usage.ru_stime, stdout.read()


def plan(rate, duration, warmup=True):
    path = f"{out}/plan_{rate}_{duration}.yaml"
    stages = (f"    - {{ rate: {rate}/s, duration: 2s, warmup: true }}\n" if warmup else "") + \
        f"    - {{ rate: {rate}/s, duration: {duration} }}\n"
    open(path, "w").write(f"name: cpu\ntarget: http://127.0.0.1:{port}\nrequests: [{{ path: /index.html }}]\n"
                          f"load:\n  connections: {conns}\n  stages:\n{stages}")
    return path


def tailgate(rate, duration, warmup=True):
    res = f"{out}/tg"
    shutil.rmtree(res, ignore_errors=True)
    bound = int(duration.rstrip("s")) + (2 if warmup else 0) + 1
    g, wall, cpu, _ = run([deno, "run", "--v8-flags=--min-semi-space-size=16,--max-semi-space-size=16", "-A",
                   f"{root}/cli.ts", "run", plan(rate, duration, warmup), "--out", res, "--report", "json",
                   "--no-baseline"], bound if warmup else None)
    d = json.load(open(glob.glob(f"{res}/*.json")[0]))
    n = sum(s["counts"]["completed"] for s in d["stages"])
    failed = n - sum(s["counts"]["ok"] for s in d["stages"])
    assert failed == 0, f"{failed} of {n} requests failed: the figures would not be of answers"
    p = [s for s in d["stages"] if not s["warmup"]][0]["response"]["percentilesUs"]
    return g, wall, cpu, n, (p["50"], p["99"], p["99.9"])


def oha_run(rate, duration):
    g, wall, cpu, text = run([oha, "-z", duration, "-q", str(rate), "-c", str(conns), "--latency-correction", "--no-tui",
                   "--output-format", "json", f"http://127.0.0.1:{port}/index.html"], int(duration.rstrip("s")) + 1)
    d = json.loads(text)
    codes = d["statusCodeDistribution"]
    assert set(codes) <= {"200"}, f"oha got {codes}: the figures would not be of answers"
    p = d["latencyPercentiles"]
    return g, wall, cpu, sum(d["statusCodeDistribution"].values()), tuple(p[k] * 1e6 for k in ("p50", "p99", "p99.9"))


def show(tool, rate, g, n, wall, total, pcts):
    wakes = sum(v[1] + v[2] for v in g.values())
    # Per group: CPU µs per request, and wake-ups per second of wall time.
    parts = ", ".join(f"{k} {v[0] * 1e6 / n:.1f} ({(v[1] + v[2]) / wall:.0f}/s)"
                      for k, v in sorted(g.items(), key=lambda kv: -kv[1][0]) if v[0] > 0)
    print(f"{tool:8} {rate:>6}/s  CPU {total * 1e6 / n:6.1f} us/req  p50/p99/p99.9 {'/'.join(f'{v:.0f}' for v in pcts)} us  "
          f"wakes {wakes / n:5.2f}/req  threads {len(g)} groups  "
          f"[{parts}]  wall {wall:.1f}s n={n}", flush=True)


try:
    time.sleep(0.5)
    print(f"# load {open('/proc/loadavg').read().split()[:3]}; neighbour {neighbour_pct}% of core 1", flush=True)
    for rate in rates:
        for r in range(rounds):
            order = ["tailgate", "oha"] if r % 2 == 0 else ["oha", "tailgate"]
            for tool in order:
                if tool == "tailgate":
                    g, wall, cpu, n, pcts = tailgate(rate, f"{secs}s")
                else:
                    g, wall, cpu, n, pcts = oha_run(rate, f"{secs + 2}s")
                show(tool, rate, g, n, wall, cpu, pcts)
    # Start-up: one request, end to end (quiet runs only).
    for r in range(rounds if neighbour_pct == 0 else 0):
        g, wall, cpu, n, _ = tailgate(1, "1s", warmup=False)
        print(f"tailgate start-up: CPU {cpu * 1e3:.0f} ms, wall {wall:.2f}s for {n} request(s)", flush=True)
        g, wall, cpu, _ = run([oha, "-n", "1", "--no-tui", "--output-format", "json",
                               f"http://127.0.0.1:{port}/index.html"])
        print(f"oha start-up:      CPU {cpu * 1e3:.0f} ms, wall {wall:.2f}s for 1 request", flush=True)
    print(f"# end load {open('/proc/loadavg').read().split()[:3]}")
finally:
    nginx.terminate()
    nginx.wait()
    shutil.rmtree(out, ignore_errors=True)
