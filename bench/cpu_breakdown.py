#!/usr/bin/env python3
"""Where a generator's CPU goes, by thread: tailgate beside oha at fixed rates against nginx.

    python3 bench/cpu_breakdown.py [--rates 2000,5000,20000] [--secs 10] [--rounds 2]

Run from the project's root. nginx (one worker) on core 0, each generator on core 1, tools
alternating. While a generator runs, every thread's user and system time and its voluntary and
involuntary context switches are sampled from /proc/PID/task/*/ every 200 ms; the last sample
before exit is kept. Threads are grouped by name (tokio workers, V8 platform threads, each Worker).
Printed per tool and rate: CPU µs per request split by thread group, context switches (wake-ups)
per request, and the whole process's start-up: CPU and wall time of a run of one request.
Every load is bounded (--secs per run) and only 127.0.0.1 is loaded; nginx is stopped by its PID.
"""
import glob, json, os, re, shutil, subprocess, sys, tempfile, time
from collections import defaultdict

args = dict(rates="2000,5000,20000", secs="10", rounds="2", conns="50")
argv = sys.argv[1:]
while argv:
    k, v, argv = argv[0].lstrip("-"), argv[1], argv[2:]
    args[k] = v
rates = [int(r) for r in args["rates"].split(",")]
secs, rounds, conns = int(args["secs"]), int(args["rounds"]), int(args["conns"])
root = os.getcwd()
assert os.path.exists(os.path.join(root, "cli.ts")), "run it from the project's root"
deno = subprocess.run(["npx", "-y", "deno@2.9.6", "eval", "console.log(Deno.execPath())"],
                      capture_output=True, text=True).stdout.strip().splitlines()[-1]
oha = shutil.which("oha") or os.path.expanduser("~/.cargo/bin/oha")
tick = os.sysconf("SC_CLK_TCK")
out = tempfile.mkdtemp(prefix="cpu_breakdown.")
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


def run(cmd):
    """Runs cmd on core 1; returns its thread groups, wall time, whole-process CPU and stdout."""
    t0 = time.monotonic()
    stdout = open(f"{out}/stdout", "w+")
    p = subprocess.Popen(["taskset", "-c", "1"] + cmd, stdout=stdout, stderr=subprocess.DEVNULL)
    last = {}
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid != 0:
            break
        sample(p.pid, last)
        time.sleep(0.2)
    wall = time.monotonic() - t0
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
    g, wall, cpu, _ = run([deno, "run", "--v8-flags=--min-semi-space-size=16,--max-semi-space-size=32", "-A",
                   f"{root}/cli.ts", "run", plan(rate, duration, warmup), "--out", res, "--report", "json",
                   "--no-baseline"])
    d = json.load(open(glob.glob(f"{res}/*.json")[0]))
    n = sum(s["counts"]["completed"] for s in d["stages"])
    return g, wall, cpu, n


def oha_run(rate, duration):
    g, wall, cpu, text = run([oha, "-z", duration, "-q", str(rate), "-c", str(conns), "--latency-correction", "--no-tui",
                   "--output-format", "json", f"http://127.0.0.1:{port}/index.html"])
    return g, wall, cpu, sum(json.loads(text)["statusCodeDistribution"].values())


def show(tool, rate, g, n, wall, total):
    wakes = sum(v[1] + v[2] for v in g.values())
    # Per group: CPU µs per request, and wake-ups per second of wall time.
    parts = ", ".join(f"{k} {v[0] * 1e6 / n:.1f} ({(v[1] + v[2]) / wall:.0f}/s)"
                      for k, v in sorted(g.items(), key=lambda kv: -kv[1][0]) if v[0] > 0)
    print(f"{tool:8} {rate:>6}/s  CPU {total * 1e6 / n:6.1f} us/req  wakes {wakes / n:5.2f}/req  threads {len(g)} groups  "
          f"[{parts}]  wall {wall:.1f}s n={n}", flush=True)


try:
    time.sleep(0.5)
    print(f"# load {open('/proc/loadavg').read().split()[:3]}", flush=True)
    for rate in rates:
        for r in range(rounds):
            order = ["tailgate", "oha"] if r % 2 == 0 else ["oha", "tailgate"]
            for tool in order:
                if tool == "tailgate":
                    g, wall, cpu, n = tailgate(rate, f"{secs}s")
                else:
                    g, wall, cpu, n = oha_run(rate, f"{secs + 2}s")
                show(tool, rate, g, n, wall, cpu)
    # Start-up: one request, end to end.
    for r in range(rounds):
        g, wall, cpu, n = tailgate(1, "1s", warmup=False)
        print(f"tailgate start-up: CPU {cpu * 1e3:.0f} ms, wall {wall:.2f}s for {n} request(s)", flush=True)
        g, wall, cpu, _ = run([oha, "-n", "1", "--no-tui", "--output-format", "json",
                               f"http://127.0.0.1:{port}/index.html"])
        print(f"oha start-up:      CPU {cpu * 1e3:.0f} ms, wall {wall:.2f}s for 1 request", flush=True)
    print(f"# end load {open('/proc/loadavg').read().split()[:3]}")
finally:
    nginx.terminate()
    nginx.wait()
    shutil.rmtree(out, ignore_errors=True)
