/**
 * The help of `tailgate run`: every flag it reads (a test keeps it so).
 *
 * @module
 */
import { OVERRIDE_HELP, START_HELP } from "./args/mod.ts";

/** The help of `tailgate run`. */
export const RUN_HELP =
  `Usage: tailgate run <plan.yaml> [--out DIR] [--report FORMATS] [--target URL]
                    [--ca-cert FILE] [--fail-on WHAT] [--junit-inconclusive HOW]
                    [--export prometheus=URL | otlp=URL]...
                    [--baseline DIR | --no-baseline]
                    [--update-baseline] [--commit SHA] [--branch NAME] [--history-runs N]
                    [--confirm auto|N] [--seed N] [--shard I/N] [--start-at TIME]
                    [--fail-fast | --no-fail-fast] [--trace]
                    [--start CMD | --no-start] [--ready URL|PORT] [--ready-timeout DUR]
                    [--report-url URL] [--color | --no-color] [--print-plan]
                    [--rate-scale F] [--duration-scale F] [--stage S:K=V]... [--connections N]
       tailgate run <URL> --rate RATE --duration DUR [--connections N] [--warmup DUR]
                    [--slo SLO]... [-H "Name: value"]... [--method M] [--body TEXT|@FILE]
                    [--data NAME=FILE]... [--var NAME=SPEC]... [--http2] [--print-plan]
                    [the options above]
       tailgate run grpc://HOST:PORT/package.Service/Method --proto FILE... --rate RATE
                    [-d JSON] [--duration DUR] [-H "name: value"]... [the options above]

Runs the plan with corrected timing: every request is timed from its intended send time.
A plan's requests may draw values per request: rows of its \`data\` files ({{users.id}}) and
its \`vars\` ({{order_id}}: uuid, counter, int, choice) in paths, headers and bodies; request
n's values are a pure function of load.seed and n, rendered ahead of the schedule, and every
shard takes its own rows (docs/plan.md, "Real traffic"). A plan without load.seed draws a
fresh seed for each run (each --confirm rerun too), so reruns send new uuids; result.json
records it as plan.load.seed, and --seed N replays it.
The plan's load can be changed for one run (a short pull-request run of the nightly plan):
the overridden plan is validated like a written one, and its baseline history is kept apart.
${OVERRIDE_HELP}
  --print-plan       print the plan as it would run (overrides written in) and exit
Given a URL instead of a plan, runs one request at one rate (an ad-hoc run): the flags make
the equivalent plan, validated like any, and --print-plan prints it to commit instead.
  --rate RATE, --duration DUR   the ad-hoc run's rate (1k/s) and length (30s)
  --connections N               connections opened up front (default 50)
  --warmup DUR                  a warmup at the same rate first, not judged
  --slo SLO                     an SLO of the plan grammar (repeatable): --slo "p99 < 10ms"
  -H, --header "Name: value"    a request header (repeatable); \${env.NAME} reads a secret
  --method M, --body TEXT|@FILE the request's method and body (@FILE: a file's content)
  --data NAME=FILE[,K=V]        rows of a CSV (with a header) or .jsonl file in the current
                                folder feed {{NAME.column}} (repeatable); ,order=random|shuffle
                                (default sequence), ,exhausted=error (default wrap)
  --var NAME=SPEC               a value drawn per request for {{NAME}} (repeatable): uuid,
                                counter, int:1:20, choice:eu|us|ap, or YAML '{ int: [1, 20] }'
  --http2                       send HTTP/2 (load.http: 2): h2 agreed by ALPN to an https
                                URL, never falling back; h2c with prior knowledge to http
Given a grpc:// (grpcs://: TLS) URL of a method, calls it (a plan's \`call:\`; -H is metadata):
  --proto FILE                  the .proto file that defines it (repeatable; relative to the
                                current folder, imports found beside it)
  -d, --message JSON            the request message, a JSON object (default: empty)
  without --duration the run lasts 10s
  --out DIR        where the reports go (default ./tailgate-out/)
  --report FORMATS comma-separated: html, junit, md, hlog, or all (default html,junit,md):
                   report.html, junit.xml, summary.md, latency.hlog; result.json is always
                   written
  --report-url URL where the HTML report will be (a CI run's artifacts page): the
                   Markdown summary links it
  --target URL     run against this base URL instead of the plan's target
  --ca-cert FILE   trust this PEM certificate for https targets (repeatable); a certificate
                   not trusted stops the run before anything is sent (exit 4)
  --export KIND=URL  send the run's metrics once it is judged (repeatable; beside the plan's
                   \`export\`): prometheus=URL (remote write, e.g.
                   http://127.0.0.1:9090/api/v1/write) or otlp=URL (OTLP/HTTP base URL, e.g.
                   http://127.0.0.1:4318); a receiver that does not take them is a warning,
                   never a changed verdict or exit code (docs/reporters.md, "Export")
  --fail-on WHAT         which undecided gates exit 3; a failed gate always exits 1:
                         inconclusive-sampling (default): an SLO the run had too few requests
                         to decide; a gate the runner left undecided (the machine's
                         contention, the generator's own delays, a short history) exits 0
                         with a warning and its remedy
                         inconclusive-slo: any undecided SLO, whatever its cause
                         inconclusive: any undecided gate, regression checks included
                         fail: none (exit 0 whenever nothing failed)
  --allow-inconclusive   the same as --fail-on fail (--allow-insufficient: the old name)
  --junit-inconclusive HOW  how junit.xml writes an undecided gate: auto (default: as
                         --fail-on levels it, an error of type inconclusive when it turns the
                         run red, else skipped), skipped (never a failed test), or failure
                         (every one a failed test, the job red or not)
  --baseline DIR         the plans' baseline histories (default .tailgate/baselines); a run is
                         compared with its plan's history there, when it has one
  --no-baseline          skip the regression gate
  --update-baseline      append this run to the plan's history (sound, complete runs only):
                         the newest 10 runs in full, which the regression gate judges
                         against, and the long history \`tailgate history\` reads
  --commit SHA           the commit this run measured (7 to 40 hex digits); default
                         GITHUB_SHA, else CI_COMMIT_SHA, else git's HEAD in the plan's folder
  --branch NAME          the branch it ran on; default GITHUB_HEAD_REF (a pull request),
                         GITHUB_REF_NAME, CI_COMMIT_REF_NAME, else git's branch there
  --history-runs N       runs the long history keeps, the newest (10 to 2000; default 500)
  --confirm auto|N       rerun the plan before believing a red a rerun could clear: a gate
                         a rerun passes passes; one red only when it failed in two runs and
                         passed in none. auto (default): one rerun, only when tail regressions
                         (p90 and beyond, max) alone turn the run red; N (1-10): up to N reruns
                         when any regression or SLO failed, or an SLO the runner left
                         undecided; 0: believe the first run
  --seed N               draw every value and poisson gap from seed N (0 to 4294967295; the
                         plan's load.seed): the same seed sends the same requests. Without it
                         or load.seed, each run draws its own (result.json: plan.load.seed)
  --shard I/N            run only share I (0..N-1) of every stage's schedule, interleaved, so N
                         machines together run the whole plan; gates are judged by
                         \`tailgate merge\` over the N results
  --start-at TIME        ISO 8601 time with a zone (2026-11-22T10:00:00Z) at which the schedule
                         starts: give every shard the same one (clocks synced by NTP); a plan
                         without load.seed draws its seed from it, so the shards share one
  --fail-fast            stop once an SLO's failure is certain, whatever the rest of the
                         requests do (failures and overdue requests beyond what it allows of
                         all it plans, with 95% confidence): result.json and the reports hold
                         what ran, marked stopped by fail-fast, and the run exits 1; never
                         while tailgate itself is behind its schedule (plan key fail_fast)
  --no-fail-fast         run to the end even when the plan says fail_fast: true
  --trace                every request carries a W3C traceparent (its trace id drawn from
                         load.seed and the request's index, sampled): result.json names each
                         stage and label's slowest requests by trace id (plan key trace)
  --color, --no-color    colour the summary or not (default: on a terminal, unless NO_COLOR)
${START_HELP}
Ctrl-C stops the run and still writes what was measured, marked incomplete (while waiting
for --start-at, nothing was sent and nothing is written).
Exit codes: 0 every gate passed (or only gates the runner left undecided: a warning), 1 a
gate failed (or --fail-fast stopped the run), 2 invalid plan or usage, 3 an SLO had too few
requests to decide (any undecided gate, with --fail-on inconclusive), a gate could not be judged or the run
stopped early (or Ctrl-C while the service got ready), 4 the target is unreachable or stopped
answering (or the started service exited or was never ready), 5 a result, report or baseline
could not be written (over 0, 1 and 3: the verdict is still printed).`;
