#!/usr/bin/env python3
"""Which HTTP/2 client the engine uses: node:http2 and Deno's fetch beside oha --http2 (issue 33).

    python3 bench/h2_client_compare.py [--rates 2000,5000] [--secs 8] [--rounds 2] [--streams 10]
        [--tools node,fetch,engine,oha]

Run from the project's root. nginx (one worker, `listen ... http2`: h2c with prior knowledge) on
core 0; each generator on core 1 (taskset), over 10 connections, tools alternating per round.
The candidates run bench/h2_candidate.ts (open model, the engine's Atomics waker, response time
from the intended send); oha runs `--http2 -p STREAMS -q RATE --latency-correction` for the same
length; `engine` is tailgate's own engine over node:http2 (bench/h2_engine_run.ts, runWorkers, the
run's CPU as the "measured part"). CPU per request is the whole process's (wait4 rusage) over the requests it completed,
start-up included, as bench/cpu_breakdown.py counts it; the candidates also print the CPU of
their measured part. Every run is bounded (secs + warmup, killed 10 s past it); nginx is stopped
by its PID and its temporary folder removed.
"""
import json, os, shutil, subprocess, sys, tempfile, time

args = dict(rates="2000,5000", secs="8", rounds="2", streams="10", conns="10", warmup="2")
argv = sys.argv[1:]
while argv:
    k, v, argv = argv[0].lstrip("-"), argv[1], argv[2:]
    args[k] = v
rates = [int(r) for r in args["rates"].split(",")]
secs, rounds, streams, conns = int(args["secs"]), int(args["rounds"]), int(args["streams"]), int(args["conns"])
warmup = int(args["warmup"])
root = os.getcwd()
assert os.path.exists(os.path.join(root, "cli.ts")), "run it from the project's root"
deno = os.environ.get("DENO", "deno")
oha = shutil.which("oha") or os.path.expanduser("~/.cargo/bin/oha")
out = tempfile.mkdtemp(prefix="h2_compare.")
os.chmod(out, 0o755)  # nginx's worker (another user) reads www/ below it
port = 18800 + os.getpid() % 90
os.makedirs(f"{out}/www"); os.makedirs(f"{out}/logs")
open(f"{out}/www/index.html", "w").write("hello world")
open(f"{out}/nginx.conf", "w").write(f"""worker_processes 1; daemon off; error_log {out}/logs/e.log warn;
pid {out}/nginx.pid; events {{ worker_connections 4096; }}
http {{ access_log off; keepalive_requests 10000000; keepalive_timeout 300s;
server {{ listen 127.0.0.1:{port} http2; root {out}/www; location / {{ }} }} }}""")
url = f"http://127.0.0.1:{port}/index.html"


def run(cmd, bound_s):
    """Runs cmd on core 1, killed after bound_s; returns whole-process CPU (s) and stdout."""
    stdout = open(f"{out}/stdout", "w+")
    p = subprocess.Popen(["taskset", "-c", "1"] + cmd, stdout=stdout, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + bound_s
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid != 0:
            break
        if time.monotonic() > deadline:
            p.kill()
        time.sleep(0.05)
    stdout.seek(0)
    return usage.ru_utime + usage.ru_stime, stdout.read()


def candidate(client, rate):
    cpu, text = run([deno, "run", "-A", f"{root}/bench/h2_candidate.ts", "--client", client, "--url", url,
                     "--rate", str(rate), "--secs", str(secs), "--warmup", str(warmup),
                     "--conns", str(conns), "--streams", str(streams)], secs + warmup + 10)
    d = json.loads(text.strip().splitlines()[-1])
    return cpu * 1e6 / d["completed"], d["cpuUsPerReq"], d["errors"], d["response"], d["service"]


def engine(rate):
    cpu, text = run([deno, "run", "-A", "--v8-flags=--min-semi-space-size=16,--max-semi-space-size=16",
                     f"{root}/bench/h2_engine_run.ts", "--url", url, "--rate", str(rate), "--secs", str(secs),
                     "--warmup", str(warmup), "--conns", str(conns), "--streams", str(streams)], secs + warmup + 15)
    d = json.loads(text.strip().splitlines()[-1])
    return cpu * 1e6 / d["completed"], d["cpuUsPerReq"], d["errors"], d["response"], d["service"]


def oha_run(rate):
    cpu, text = run([oha, "-z", f"{secs + warmup}s", "-q", str(rate), "-c", str(conns), "-p", str(streams),
                     "--http2", "--latency-correction", "--no-tui", "--output-format", "json", url],
                    secs + warmup + 10)
    d = json.loads(text)
    n = sum(d["statusCodeDistribution"].values())
    errors = sum(d.get("errorDistribution", {}).values()) + n - d["statusCodeDistribution"].get("200", 0)
    p = d["latencyPercentiles"]
    return cpu * 1e6 / max(n, 1), float("nan"), errors, [round(p[k] * 1e6) for k in ("p50", "p99", "p99.9")], None


nginx = subprocess.Popen(["taskset", "-c", "0", "nginx", "-c", f"{out}/nginx.conf", "-p", out],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    time.sleep(0.5)
    print(f"# load {open('/proc/loadavg').read().split()[:3]}; {conns} connections, {streams} streams", flush=True)
    tools = args.get("tools", "node,fetch,engine,oha").split(",")
    for rate in rates:
        for r in range(rounds):
            for tool in (tools if r % 2 == 0 else tools[::-1]):
                whole, measured, errors, resp, serv = oha_run(rate) if tool == "oha" else \
                    engine(rate) if tool == "engine" else candidate(tool, rate)
                print(f"{tool:6} {rate:>6}/s  CPU {whole:6.1f} us/req (measured part {measured:6.1f})  "
                      f"response p50/p99/p99.9 {'/'.join(map(str, resp))} us  "
                      f"service {'/'.join(map(str, serv)) if serv else '-'} us  errors {errors}", flush=True)
    print(f"# end load {open('/proc/loadavg').read().split()[:3]}")
finally:
    nginx.terminate()
    nginx.wait()
    shutil.rmtree(out, ignore_errors=True)
