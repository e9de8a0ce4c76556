/**
 * verdict_noise.ts's A/B mode: the Action's A/B mode as a pull request runs it (`ab-base`,
 * `ab-head` and their start commands; `baseline: none` as ci/examples/github-pr-ab.yml has it;
 * every other input, `ab-rounds` among them, at action.yml's default), tailgate starting and
 * stopping base and head itself. `abs` A/Bs per case (the same build as base and head; for the C
 * server also head 10% and 5% slower), every second one of each case beside the busy loop for its
 * whole length, all cases' A/Bs in one order drawn from the seed.
 *
 * @module
 */
import { join } from "node:path";
import type { AbResult } from "../../runner/model/ab_result.ts";
import { freePort } from "../../tests/_helpers/free_port.ts";
import { abFields, abRedCause, planDir, readJson } from "./rows.ts";
import { serverCommand, type ServerKind } from "./servers.ts";
import { changeCase, commitOf, type Study, studyJob, WARMUP_SECS, workspace } from "./study.ts";

/** Runs the A/B mode against one server; `draw` is the seeded random source of the order. */
export async function abStudy(study: Study, kind: ServerKind, draw: () => number): Promise<void> {
  const { opts } = study;
  const ws = await workspace(study, `ab-${kind}`, freePort());
  const rounds = Number(study.action.defaults["ab-rounds"]) || 12;
  // Each run starts its server and a tailgate process: 15 s of slack a run.
  const timeoutMs = (90 + rounds * 2 * (WARMUP_SECS + opts.secs + 15)) * 1000;
  const base = kind === "c" ? opts.delayUs : undefined;
  const cases: Array<{ c: string; head: number | undefined }> = [];
  if (opts.unchangedPart) cases.push({ c: "identical", head: base });
  if (opts.changedPart && kind === "c") {
    for (const change of opts.changes) {
      cases.push({ c: changeCase(change), head: Math.round(opts.delayUs * (1 + change)) });
    }
  }
  const trials = cases.flatMap(({ c, head }) =>
    Array.from({ length: opts.abs }, (_, i) => ({ c, head, index: i + 1, busy: i % 2 === 1 }))
  );
  for (let i = trials.length - 1; i > 0; i--) {
    const k = Math.floor(draw() * (i + 1));
    [trials[i], trials[k]] = [trials[k], trials[i]];
  }
  for (const t of trials) {
    const [basePort, headPort] = [freePort(), freePort()];
    const j = await studyJob(study, ws, {
      inputs: {
        baseline: "none",
        "ab-base": `http://127.0.0.1:${basePort}`,
        "ab-head": `http://127.0.0.1:${headPort}`,
        "ab-base-start": serverCommand(study.servers, kind, basePort, base),
        "ab-head-start": serverCommand(study.servers, kind, headPort, t.head),
      },
      event: {
        eventName: "pull_request",
        ref: "refs/pull/41/merge",
        sha: await commitOf(opts.seed, `ab:${kind}:${t.c}:${t.index}`),
      },
      timeoutMs,
      busy: t.busy,
      label: `ab-${kind}-${t.c}-${t.index}`,
    });
    const abDir = planDir(j.out, "ab.json") ?? j.out;
    const ab = readJson<AbResult>(join(abDir, "ab.json"));
    await study.record({
      mode: "ab",
      server: kind,
      case: t.c,
      index: t.index,
      ...(base === undefined ? {} : { baseDelayUs: base }),
      ...(t.head === undefined ? {} : { headDelayUs: t.head }),
      ...j.common,
      ...abFields(ab, abDir),
      ...(j.common.colour === "red" ? { redBy: abRedCause(ab) } : {}),
      problems: [...j.common.problems, ...(ab ? [] : ["no ab.json"])],
    });
  }
}
