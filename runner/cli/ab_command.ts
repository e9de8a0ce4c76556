/**
 * `tailgate ab plan.yaml --base URL --head URL`: the paired A/B comparison (runner/ab/). Writes
 * `ab.json`, `ab.md`, `ab.html`, `ab-junit.xml` and every run's result under `runs/`, atomically,
 * also when stopped (Ctrl-C compares the rounds that ran), and exits by the comparison's verdict.
 *
 * @module
 */
import { abPlan, DEFAULT_ROUNDS } from "../ab/mod.ts";
import { AB_DEFAULT_MIN_TAIL_SAMPLES, MIN_ROUNDS } from "../gates/mod.ts";
import { undecidableTails } from "../gates/mod.ts";
import { type CommandOutcome, failed } from "./command.ts";
import { planToRun } from "./plan_to_run.ts";
import { OVERRIDE_HELP, readAbArgs } from "./args/mod.ts";

export { AB_OPTIONS } from "./args/mod.ts";

/** The help of `tailgate ab`. */
export const AB_HELP = `Usage: tailgate ab <plan.yaml> --base URL --head URL [options]

Compares two builds of a service on this machine: base and head run the plan's stages in
rounds, one after the other in a random order within each round, so both see the same machine.
Each gated (stage, label, metric) is judged on the rounds' paired changes: a regression is worse
than the plan's regression floor beyond Holm's level; ok is a 95% interval within the floor;
otherwise inconclusive (more rounds decide). SLOs are judged on head's runs. A tail percentile
that one round's stage is too short to judge is said before the rounds, with the length that
would decide it.
  --base URL           the base build's URL (e.g. the main branch)
  --head URL           the head build's URL (e.g. the pull request)
  --base-start CMD     start base with this command (sh -c) before each of its runs, and stop
                       it after (its process group); its URL must then be free beforehand
  --head-start CMD     the same for head
  --base-ready URL     with --base-start: ready once this URL answers 2xx (default: once
                       the base URL's port accepts a connection)
  --head-ready URL     the same for head
  --rounds N           rounds of base and head (default ${DEFAULT_ROUNDS}, at least ${MIN_ROUNDS})
  --seed N             the rounds' order (default random; the result records it)
  --ready-timeout DUR  how long a started target may take to be ready (default 60s)
  --fail-fast          stop a head run once one of its SLOs is certain to fail, as
                       \`tailgate run --fail-fast\` does, and end the comparison there: a fail
                       (the plan's fail_fast: true does the same)
  --no-fail-fast       run every head run to its end even when the plan says fail_fast
  --out DIR            where ab.json, ab.md, ab.html, ab-junit.xml and runs/ go
                       (default ./tailgate-out/ab)
  --fail-on WHAT       which undecided gates exit 3, as for \`tailgate run\`:
                       inconclusive-sampling (default: an SLO too few requests left undecided;
                       gates the runner left undecided and undecided comparisons exit 0 with a
                       warning), inconclusive-slo (any undecided SLO), inconclusive (any
                       undecided gate) or fail (none)
  --junit-inconclusive HOW  how ab-junit.xml writes an undecided gate or comparison, as for
                       \`tailgate run\`: auto (default: as --fail-on levels it), skipped, or
                       failure
The plan's load can be changed for the comparison, as \`tailgate run\` does:
${OVERRIDE_HELP}
Exit codes: 0 every gate passed (or only comparisons, or gates the runner left undecided: a
warning), 1 a regression or a failed SLO (or a head run stopped by fail-fast), 2 invalid plan or
usage, 3 an SLO too few requests left undecided (any gate, with --fail-on inconclusive) or
stopped, 4 a target could not be
reached or started, 5 a file could not be written (over 0, 1 and 3).`;

/**
 * Runs `tailgate ab`.
 */
export async function abCommand(
  args: string[],
  progress: (line: string) => void,
  signal?: AbortSignal,
): Promise<CommandOutcome> {
  const read = readAbArgs(args);
  if (!read.ok) return failed(read.problems);
  const { planPath, overrides, options } = read.value;
  const loaded = await planToRun(planPath, progress, {
    ...(overrides ? { overrides } : {}),
    // Said before the rounds: a tail percentile one round cannot decide, and how long would.
    warnings: (plan, text) =>
      undecidableTails(plan, text, { defaultMinTail: AB_DEFAULT_MIN_TAIL_SAMPLES }),
  });
  if ("outcome" in loaded) return loaded.outcome;
  return await abPlan(loaded.plan, {
    ...options,
    ...(signal ? { signal } : {}),
    onProgress: progress,
    onRun: ({ round, side, phase, status }) =>
      progress(
        phase === "start"
          ? `ab: round ${round}: running ${side}`
          : `ab: round ${round}: ${side} ${status}`,
      ),
  });
}
