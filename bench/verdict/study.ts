/**
 * What verdict_noise.ts's two modes share: the options, the plan written into a job's workspace,
 * one Action job run with the busy loop beside it when asked (its `out` folder moved aside for the
 * row to read), and the made-up commits.
 *
 * @module
 */
import { join } from "node:path";
import { type Action, type GithubEvent, runJob } from "../ci_action/mod.ts";
import { coreTicks, loadAverage, startBusyLoop } from "../_harness.ts";
import { jobFields } from "./rows.ts";
import type { Servers } from "./servers.ts";
import type { AbRow, HistoryRow } from "./tables.ts";

/** The core the servers (and the busy loop) run on. */
export const SERVER_CORE = "0";
/** The core the Action's steps, and so tailgate, run on. */
export const TAILGATE_CORE = "1";
/** The plan's warmup stage. */
export const WARMUP_SECS = 2;
/** The plan, relative to a job's workspace (matched by the `plans` input's default). */
export const PLAN_FILE = "plans/verdict-noise.yaml";
/** The changes studied by default (`--changes 10,5`): the C server this much slower. */
export const CHANGES: readonly number[] = [0.10, 0.05];

/** The study's options, as checked. */
export interface StudyOptions {
  runs: number;
  changedRuns: number;
  abs: number;
  ratePerSec: number;
  secs: number;
  delayUs: number;
  slo: string;
  seed: number;
  /** The C server's slowdowns studied, as fractions (0.1: 10% slower). */
  changes: readonly number[];
  unchangedPart: boolean;
  changedPart: boolean;
}

/** One study's state. */
export interface Study {
  opts: StudyOptions;
  action: Action;
  servers: Servers;
  /** The checkout the study runs from (the Action's and cli.ts's). */
  root: string;
  /** The temporary folder: workspaces, jobs/ (each job's log and `out`), servers. */
  dir: string;
  /** Keeps a finished row. */
  record(row: HistoryRow | AbRow): Promise<void>;
  /** Aborted when the study is stopped (Ctrl-C): no job, busy loop or server starts after. */
  signal: AbortSignal;
}

/** Throws once the study is stopped, so nothing new starts. */
export function checkRunning(study: Study): void {
  if (study.signal.aborted) throw new Error("the study was stopped");
}

/** The case a change is named by: `+10%`. */
export const changeCase = (change: number): string => `+${Math.round(change * 100)}%`;

/** A made-up 40-hex commit for a job, the same for the same seed and `what`. */
export async function commitOf(seed: number, what: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(`${seed}:${what}`));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A job's workspace `dir/name`, holding the plan aimed at 127.0.0.1:`port`. */
export async function workspace(study: Study, name: string, port: number): Promise<string> {
  const { ratePerSec, secs, slo } = study.opts;
  const ws = join(study.dir, name);
  await Deno.mkdir(join(ws, "plans"), { recursive: true });
  await Deno.writeTextFile(
    join(ws, PLAN_FILE),
    `name: verdict-noise
description: bench/verdict_noise.ts's plan, a CI plan's shape.
target: http://127.0.0.1:${port}
requests: [{ path: / }]
load:
  stages:
    - { name: warmup, rate: ${ratePerSec}/s, duration: ${WARMUP_SECS}s, warmup: true }
    - { name: steady, rate: ${ratePerSec}/s, duration: ${secs}s }
${slo ? `slo:\n  - ${slo}\n` : ""}`,
  );
  return ws;
}

/**
 * Each core's busy and steal share (%) between two /proc/stat readings: busy counts everything on
 * it (the server, the busy loop, tailgate, and other work on the machine); steal is time the
 * hypervisor gave to other guests.
 */
function coreShares(
  before: ReturnType<typeof coreTicks>,
  after: ReturnType<typeof coreTicks>,
): Array<{ busyPct: number; stealPct: number }> {
  return after.map((a, i) => {
    const total = Math.max(1, a.total - before[i].total);
    const pct = (x: number) => Math.round((x / total) * 1000) / 10;
    return { busyPct: pct(a.busy - before[i].busy), stealPct: pct(a.steal - before[i].steal) };
  });
}

let runId = 0;

/**
 * Runs one Action job in `ws` (the busy loop on the servers' core beside it when `busy`), then
 * moves its `out` folder to `jobs/<label>`; resolves with the job, that folder and the row fields
 * every job has.
 */
export async function studyJob(
  study: Study,
  ws: string,
  job: {
    inputs: Record<string, string>;
    event: Omit<GithubEvent, "runId" | "defaultBranch">;
    timeoutMs: number;
    busy: boolean;
    label: string;
  },
) {
  checkRunning(study);
  const loadStart = loadAverage();
  const ticksBefore = coreTicks();
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  await Deno.mkdir(join(study.dir, "jobs"), { recursive: true });
  const loop = job.busy ? startBusyLoop(SERVER_CORE, job.timeoutMs / 1000 + 5) : undefined;
  let outcome;
  try {
    outcome = await runJob(study.action, {
      workspace: ws,
      inputs: job.inputs,
      event: { ...job.event, defaultBranch: "main", runId: ++runId },
      core: TAILGATE_CORE,
      timeoutMs: job.timeoutMs,
      logFile: join(study.dir, "jobs", `${job.label}.log`),
      signal: study.signal,
    });
  } finally {
    await loop?.stop();
  }
  checkRunning(study); // a job cut short by Ctrl-C is no row
  const wallMs = Math.round(performance.now() - t0);
  const out = join(study.dir, "jobs", job.label);
  await Deno.rename(join(ws, outcome.inputs.out), out).catch(() => {});
  return {
    outcome,
    out,
    common: {
      startedAt,
      wallMs,
      loadStart,
      loadEnd: loadAverage(),
      cores: coreShares(ticksBefore, coreTicks()),
      busy: job.busy,
      ...jobFields(outcome),
    },
  };
}
