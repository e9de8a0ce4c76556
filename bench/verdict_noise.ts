/**
 * False reds and missed regressions (issue 41, part 6): does the CI gate stay green when nothing
 * changed, and turn red, with the reason, when something did, on a shared 2-core runner where the
 * service and the load generator sit side by side? The study drives the product only through its
 * real entry points, so it measures whatever the gates' defaults are on the commit it runs from:
 *
 * - **History mode**: the GitHub Action as a job on the default branch runs it (a push to
 *   `main`): action.yml is read, every input takes its default there except `baseline: committed`
 *   and `update-baseline: true` (the history lives in a temporary workspace), and its shell steps
 *   run as a runner would (ci_action/: settings, run_plans.ts, the gate). `--runs` unchanged
 *   runs of one plan against the running server are each added to the history, with a busy loop
 *   on the server's core beside every second run (`taskset -c 0 timeout N sh -c 'while :; do :;
 *   done'`). Then, from a copy of that history each, the C server 10% and 5% slower (`--changes`) for
 *   `--changed-runs` runs: when does the job turn red, and when does `tailgate history` (which
 *   the Action runs itself on the default branch) name the step at the first slower build's
 *   commit?
 * - **A/B mode**: the Action's A/B mode as a pull request runs it (`tailgate ab`, the default
 *   `ab-rounds`; `baseline: none` as ci/examples/github-pr-ab.yml sets it; tailgate starts and
 *   stops base and head itself): `--abs` A/Bs of the same build as base and head, and as many
 *   with head 10% and 5% slower (C server only), every second one of each case beside the busy
 *   loop for its whole length, in an order drawn from `--seed` (the Action has no seed input, so
 *   tailgate draws each A/B's round order itself; its row keeps that seed).
 *
 * Each job is judged only by what the Action and tailgate hand back: the job's exit code, the
 * action's outputs (`verdict`), its warning annotations and the summary's warning sign, and
 * `result.json`/`ab.json`/`history.json` fields (`verdict.status`, `regressionOnly`, the verdicts'
 * `status` and `causes`, `comparisons[].status`, `changes[]`); messages are kept for people only.
 *
 * A job is red when it fails (and why: a regression, a tool-limited run, an SLO, or else), a
 * warning when it passes but its `verdict` output is not `pass`, an annotation is a warning or the
 * summary has a warning sign, else green; a change is "detected" when its job is red by a
 * regression, "missed" when green.
 *
 * Servers: the C delay server (servers/delay_epoll.c, `cc -O2` into a temporary folder: 2.0 ms,
 * and 2.2 / 2.1 ms for the default `--changes`) and nginx (one worker; no changed case, as nginx cannot be
 * slowed precisely). Servers run on core 0, the Action's steps (and so tailgate) on core 1. The
 * plan has a CI plan's shape: a 2 s warmup and `--secs` (10) at `--rate` (2k/s), one SLO
 * (`--slo`, `p99 < 100ms`), default connections.
 *
 *     deno run -A bench/verdict_noise.ts [--mode history|ab|all] [--server c|nginx|both]
 *       [--runs 30] [--changed-runs 10] [--abs 20] [--rate 2000] [--secs 10] [--seed N]
 *       [--changes 10,5]
 *       [--only-unchanged | --only-changed] [--json FILE] [--keep]
 *
 * The modes are in verdict/ (history_study.ts, ab_study.ts), the Action's runner in ci_action/.
 *
 * How long (defaults, measured stage 10 s): a history job takes about 14 s, so the history
 * mode about 7 min of unchanged runs and 5 min of changed ones per change and server (nginx:
 * unchanged only); an A/B job (the Action's 5 rounds) about 5 × 2 × 12.5 s ≈ 126 s, so 60 A/Bs
 * on the C server ≈ 2.1 h and 20 on nginx ≈ 42 min. `--only-changed` still first stores `--runs` unchanged runs in history mode
 * (the history the change is judged against; lower `--runs` to shorten it). A smoke run:
 * `--runs 2 --changed-runs 2 --abs 1 --secs 3` (about 12 min).
 *
 * Prints one line per job on standard error, then a Markdown table per mode and server on
 * standard output; `--json FILE` gets every raw row (rewritten after each job, so a stopped study
 * keeps what it measured). `--keep` keeps the temporary folder (each job's log and `out` folder).
 * Only 127.0.0.1 is loaded; every loop is bounded in count and time; every process the study
 * starts is stopped by its PID or process group, also on Ctrl-C (the busy loop by its `timeout`
 * too), which ends the job running, prints the tables of the jobs done and exits 130.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { killStartedServices } from "../runner/service/mod.ts";
import { endRunningSteps, readAction } from "./ci_action/mod.ts";
import { killLive, loadAverage } from "./_harness.ts";
import { mulberry32 } from "../tests/_helpers/seeded_random.ts";
import {
  type AbRow,
  abStudy,
  abTables,
  CHANGES,
  type HistoryRow,
  historyStudy,
  historyTables,
  prepareServers,
  SERVER_CORE,
  type ServerKind,
  type StudyOptions,
  WARMUP_SECS,
} from "./verdict/mod.ts";

const { values } = parseArgs({
  options: {
    mode: { type: "string", default: "all" },
    server: { type: "string", default: "both" },
    runs: { type: "string", default: "30" },
    "changed-runs": { type: "string", default: "10" },
    abs: { type: "string", default: "20" },
    rate: { type: "string", default: "2000" },
    secs: { type: "string", default: "10" },
    "delay-us": { type: "string", default: "2000" },
    changes: { type: "string", default: CHANGES.map((c) => c * 100).join(",") },
    slo: { type: "string", default: "p99 < 100ms" },
    seed: { type: "string" },
    "only-unchanged": { type: "boolean", default: false },
    "only-changed": { type: "boolean", default: false },
    json: { type: "string" },
    keep: { type: "boolean", default: false },
  },
});

function usage(problem: string): never {
  console.error(`verdict_noise: ${problem}`);
  Deno.exit(2);
}
function whole(name: keyof typeof values, min: number, max: number): number {
  const v = Number(values[name]);
  if (!Number.isInteger(v) || v < min || v > max) {
    usage(`--${name}: \`${values[name]}\` is not a whole number from ${min} to ${max}`);
  }
  return v;
}
function oneOf<T extends string>(name: "mode" | "server", allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(values[name]!)) {
    usage(`--${name}: \`${values[name]}\` is not one of ${allowed.join(", ")}`);
  }
  return values[name] as T;
}
/** `--changes 10,5`: whole percents from 1 to 50, as fractions. */
function percents(text: string): number[] {
  const list = text.split(",").map((t) => Number(t.trim().replace(/%$/, "")));
  if (list.length === 0 || list.some((v) => !Number.isInteger(v) || v < 1 || v > 50)) {
    usage(`--changes: \`${text}\` is not a list of whole percents from 1 to 50, such as 10,5,3`);
  }
  return list.map((v) => v / 100);
}
const mode = oneOf("mode", ["history", "ab", "all"] as const);
const serverOpt = oneOf("server", ["c", "nginx", "both"] as const);
if (values["only-unchanged"] && values["only-changed"]) {
  usage("--only-unchanged and --only-changed exclude each other: give one, or neither");
}
const opts: StudyOptions = {
  runs: whole("runs", 1, 1000),
  changedRuns: whole("changed-runs", 1, 200),
  abs: whole("abs", 1, 200),
  ratePerSec: whole("rate", 10, 50_000),
  secs: whole("secs", 1, 600),
  delayUs: whole("delay-us", 100, 1_000_000),
  slo: values.slo ?? "",
  changes: percents(values.changes ?? ""),
  seed: values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : whole("seed", 0, 2 ** 31),
  unchangedPart: !values["only-changed"],
  changedPart: !values["only-unchanged"],
};
const kinds: ServerKind[] = serverOpt === "both" ? ["c", "nginx"] : [serverOpt];

const root = new URL("../", import.meta.url).pathname;
const dir = await Deno.makeTempDir({ prefix: "tailgate-verdict-noise-" });
const action = await readAction(root);
const rows: Array<HistoryRow | AbRow> = [];
const meta = {
  startedAt: new Date().toISOString(),
  commit: await gitHead(),
  options: { mode, server: serverOpt, ...opts },
  actionDefaults: action.defaults,
  cores: navigator.hardwareConcurrency,
};

async function gitHead(): Promise<string | undefined> {
  const out = await new Deno.Command("git", { args: ["-C", root, "rev-parse", "HEAD"] }).output()
    .catch(() => undefined);
  return out?.success ? new TextDecoder().decode(out.stdout).trim() : undefined;
}

/** One line per job on standard error; every row so far to `--json`. */
async function record(row: HistoryRow | AbRow): Promise<void> {
  rows.push(row);
  const ms = (us: number) => `${(us / 1000).toFixed(3)} ms`;
  const kinds = (errors: Record<string, number> | undefined) =>
    Object.entries(errors ?? {}).map(([k, n]) => `${k} ${n}`).join(" ");
  const facts = row.mode === "history"
    ? [
      row.p50Us === undefined ? "" : `p50 ${ms(row.p50Us)}`,
      row.toolLimited ? "tool-limited" : "",
      row.errors ? `errors ${kinds(row.errors)}` : "",
      `stored ${row.stored}`,
      row.namesStep === undefined ? "" : `history names the step ${row.namesStep}`,
    ]
    : [
      ...(row.comparisons ?? []).filter((c) => ["p50", "p99"].includes(c.metric) && !c.label)
        .map((c) => `${c.metric} ${c.status} ${(c.change * 100).toFixed(1)}%`),
      row.roundsCompared === undefined ? "" : `${row.roundsCompared} rounds compared`,
      ...(["base", "head"] as const).map((side) =>
        row.errors?.[side] ? `${side} errors ${kinds(row.errors[side])}` : ""
      ),
    ];
  console.error(
    `${row.mode} ${row.server} ${row.case} #${row.index}${row.busy ? " (busy loop)" : ""}: ` +
      `${row.colour} (exit ${row.jobExitCode}, verdict ${row.outputs.verdict ?? "-"})` +
      [
        ...facts.filter((f) => f !== ""),
        `${(row.wallMs / 1000).toFixed(0)} s`,
        `steal ${row.cores.map((c) => `${c.stealPct}%`).join("/")}`,
        `load ${row.loadEnd}`,
      ]
        .map((f) => `, ${f}`).join("") +
      (row.problems.length ? `; ${row.problems.join("; ")}` : ""),
  );
  if (values.json) {
    await Deno.writeTextFile(values.json, JSON.stringify({ study: meta, rows }, null, 1) + "\n");
  }
}

const stop = new AbortController();
let interrupted = false;

/** Ends what runs now (the job's steps, the busy loop, the server); nothing starts after. */
async function stopAll(): Promise<void> {
  stop.abort();
  await endRunningSteps();
  killLive("SIGTERM");
  killStartedServices();
}

Deno.addSignalListener("SIGINT", () => {
  if (interrupted) Deno.exit(130); // a second Ctrl-C: at once
  interrupted = true;
  console.error("stopping every job, busy loop and server the study started; tables follow");
  stopAll();
});

console.error(
  `verdict_noise: seed ${opts.seed}, ${meta.commit?.slice(0, 7) ?? "unknown commit"}, load ` +
    `average ${loadAverage()}; folder ${dir}${values.keep ? " (kept)" : ""}`,
);
try {
  const servers = await prepareServers(kinds, dir, SERVER_CORE);
  const study = { opts, action, servers, root, dir, record, signal: stop.signal };
  if (mode !== "ab") { for (const kind of kinds) await historyStudy(study, kind); }
  const draw = mulberry32(opts.seed);
  if (mode !== "history") { for (const kind of kinds) await abStudy(study, kind, draw); }
} catch (error) {
  if (!interrupted) throw error; // stopped by Ctrl-C: the tables of what was measured
} finally {
  await stopAll();
  if (!values.keep) await Deno.remove(dir, { recursive: true }).catch(() => {});
}
if (interrupted) Deno.exitCode = 130;
const inputsSet = [
  mode === "ab" ? "" : "`baseline: committed` and `update-baseline: true` (history mode)",
  mode === "history" ? "" : "the A/B inputs and `baseline: none` (A/B mode)",
].filter((s) => s !== "").join("; ");
console.log(
  [
    `## verdict_noise on ${meta.commit?.slice(0, 7) ?? "an unknown commit"}, ${meta.startedAt}`,
    "",
    `Plan: ${WARMUP_SECS} s warmup and ${opts.secs} s at ${opts.ratePerSec}/s` +
    `${opts.slo ? `, SLO \`${opts.slo}\`` : ""}; seed ${opts.seed}; every Action input at its ` +
    `default but ${inputsSet}.`,
    "",
    ...kinds.flatMap((k) =>
      historyTables(k, rows.filter((r): r is HistoryRow => r.mode === "history"))
    ),
    ...kinds.flatMap((k) => abTables(k, rows.filter((r): r is AbRow => r.mode === "ab"))),
  ].join("\n"),
);
