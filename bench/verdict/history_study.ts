/**
 * verdict_noise.ts's history mode: the Action as a job on the default branch runs it (a push to
 * `main`, `baseline: committed`, `update-baseline: true`, every other input at action.yml's
 * default), against a server the study keeps running (a CI job's service; one that exits or stops
 * answering is said in the job's row and restarted). `runs` unchanged runs, each added to the
 * history, the busy loop beside every second one; then, for each change, the history as it stood
 * after them copied back, the C server restarted that much slower, and `changedRuns` runs: each
 * row says whether the job turned red and whether `tailgate history` named the step: a worse
 * `step` change at the commit of the first slower build it stored.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { RunResult } from "../../runner/model/run_result.ts";
import type { HistoryReport } from "../../runner/model/history_result.ts";
import { freePort } from "../../tests/_helpers/free_port.ts";
import { historyFields, planDir, readJson, resultFields, runRedCause, storedRuns } from "./rows.ts";
import type { ServiceProcess } from "../../runner/service/mod.ts";
import { type ServerKind, startServer } from "./servers.ts";
import {
  changeCase,
  checkRunning,
  commitOf,
  PLAN_FILE,
  type Study,
  studyJob,
  TAILGATE_CORE,
  WARMUP_SECS,
  workspace,
} from "./study.ts";

/** Runs the history mode against one server. */
export async function historyStudy(study: Study, kind: ServerKind): Promise<void> {
  const { opts } = study;
  if (kind !== "c" && !opts.unchangedPart) return; // nginx has no changed case
  const port = freePort();
  const ws = await workspace(study, `history-${kind}`, port);
  const inputs = { baseline: "committed", "update-baseline": "true" };
  const effective: Record<string, string> = { ...study.action.defaults, ...inputs };
  const baselineDir = join(ws, effective["baseline-dir"]);
  const confirm = Number(effective.confirm) || 0;
  const timeoutMs = (90 + 3 * (WARMUP_SECS + opts.secs) * (1 + confirm)) * 1000;
  let storedAtChange: number | undefined;
  // The running server; `lost` is set when it exits unasked: said in the job's row, restarted.
  let server: ServiceProcess | undefined;
  let lost: { status: Deno.CommandStatus; log: string } | undefined;
  const start = async (delayUs: number | undefined) => {
    checkRunning(study);
    const s = await startServer(study.servers, kind, port, delayUs);
    server = s;
    s.exited.then(async (status) => {
      if (server === s) lost = { status, log: await s.logTail() };
    });
    return async () => {
      server = undefined;
      await s.stop();
    };
  };
  let stopServer = async () => {};
  // The unchanged builds' commits: a step from one of them to a slower one names the change.
  const unchanged = new Set<string>();
  const one = async (
    c: string,
    index: number,
    delay: number | undefined,
    changeCommit?: string,
  ) => {
    const commit = await commitOf(opts.seed, `${kind}:${c}:${index}`);
    if (c === "unchanged") unchanged.add(commit);
    const before = storedRuns(baselineDir);
    const label = `history-${kind}-${c}-${index}`;
    const j = await studyJob(study, ws, {
      inputs,
      event: { eventName: "push", ref: "refs/heads/main", sha: commit },
      timeoutMs,
      busy: index % 2 === 0,
      label,
    });
    const problems = [...j.common.problems];
    if (lost) {
      const { code, signal } = lost.status;
      problems.push(
        `the server exited during the job (code ${code}${signal ? `, ${signal}` : ""}; its ` +
          `output: ${lost.log}); restarted`,
      );
      lost = undefined;
      await stopServer();
      stopServer = await start(delay);
    } else if (!(await answers(port))) {
      problems.push("the server did not answer a request after the job (hung?); restarted");
      await stopServer();
      stopServer = await start(delay);
    }
    const result = readJson<RunResult>(join(planDir(j.out, "result.json") ?? j.out, "result.json"));
    const historyDir = planDir(join(j.out, "history"), "history.json");
    const report = historyDir
      ? readJson<HistoryReport>(join(historyDir, "history.json"))
      : await ownHistory(study, ws, baselineDir, label);
    await study.record({
      mode: "history",
      server: kind,
      case: c,
      index,
      ...(delay === undefined ? {} : { delayUs: delay }),
      commit,
      ...(storedAtChange === undefined ? {} : { storedAtChange }),
      ...j.common,
      ...resultFields(result),
      ...(j.common.colour === "red" ? { redBy: runRedCause(result) } : {}),
      stored: storedRuns(baselineDir) > before,
      ...historyFields(report, c === "unchanged" ? undefined : changeCommit ?? commit, unchanged),
      problems: [...problems, ...(result ? [] : ["no result.json"])],
    });
    return { commit, stored: storedRuns(baselineDir) > before };
  };
  try {
    const delay = kind === "c" ? opts.delayUs : undefined;
    stopServer = await start(delay);
    for (let i = 1; i <= opts.runs; i++) await one("unchanged", i, delay);
    if (!opts.changedPart || kind !== "c") return;
    const snapshot = join(study.dir, `history-${kind}-snapshot`);
    await copyFiles(baselineDir, snapshot);
    for (const change of opts.changes) {
      await stopServer();
      await Deno.remove(baselineDir, { recursive: true }).catch(() => {});
      await copyFiles(snapshot, baselineDir);
      storedAtChange = storedRuns(baselineDir);
      const slower = Math.round(opts.delayUs * (1 + change));
      stopServer = await start(slower);
      // The step lies at the first slower build the history stored (an unsound run is not).
      let first: string | undefined;
      for (let j = 1; j <= opts.changedRuns; j++) {
        const run = await one(changeCase(change), j, slower, first);
        if (run.stored) first ??= run.commit;
      }
    }
  } finally {
    await stopServer();
  }
}

/** Whether the server on 127.0.0.1:`port` answers one GET within 2 s. */
async function answers(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/** `tailgate history` run by hand, when the Action did not run it (its `history` input off). */
async function ownHistory(study: Study, ws: string, baselineDir: string, label: string) {
  const out = join(study.dir, "jobs", `${label}-history`);
  await new Deno.Command("taskset", {
    args: [
      ...["-c", TAILGATE_CORE, Deno.execPath(), "run", "-A", join(study.root, "cli.ts")],
      ...["history", PLAN_FILE, "--baseline", baselineDir, "--out", out],
    ],
    cwd: ws,
    stdout: "null",
    stderr: "null",
    signal: AbortSignal.timeout(120_000),
  }).output().catch(() => undefined);
  return readJson<HistoryReport>(join(out, "history.json"));
}

/** Copies the files of `from` (not its folders) into `to`; nothing when there is no `from`. */
async function copyFiles(from: string, to: string): Promise<void> {
  if (!existsSync(from)) return;
  await Deno.mkdir(to, { recursive: true });
  for (const e of Deno.readDirSync(from)) {
    if (e.isFile) await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}
