/**
 * A plan's setup and teardown: its `setup` steps sent once, in order, before the load, their
 * captures bound into the measured requests; its `teardown` steps sent once after it. A setup
 * step that fails ends the run before any load ({@linkcode StepFailure}); a teardown step that
 * fails is a warning. Messages name the step, its status and the first 200 characters of its
 * body, with every secret (environment values, captured values) blotted out.
 *
 * @module
 */
import type { StepRecord } from "../model/mod.ts";
import { problemText } from "../model/mod.ts";
import { printable } from "../plan/mod.ts";
import type { PlanStep, ResolvedPlan } from "../plan/mod.ts";
import { mixLabels, statusExpected } from "../plan/mod.ts";
import { bindCaptures } from "./bind_captures.ts";
import { type CapturedValue, captureSourceText, captureValue } from "../engine/mod.ts";
import { sendStep, type SendStepOptions } from "./send_step.ts";
import { blotSecrets, secretForms, shownBody } from "./masked_text.ts";

/** A setup step failed: no load is sent (exit 4); `interrupted` when it was stopped instead. */
export class StepFailure extends Error {
  /** True when a stop (Ctrl-C), not the step, ended the setup. */
  readonly interrupted: boolean;
  /** The steps sent so far, the failed one last. */
  readonly records: StepRecord[];
  /** A failure: what went wrong, the steps sent so far, and whether a stop caused it. */
  constructor(message: string, records: StepRecord[], interrupted = false) {
    super(message);
    this.name = "StepFailure";
    this.records = records;
    this.interrupted = interrupted;
  }
}

/** The plan once setup has run: its requests bound, and what teardown needs. */
export interface Session {
  /** The plan with every capture bound into its requests (what the engine sends). */
  plan: ResolvedPlan;
  /** Captured values by name. */
  values: Map<string, CapturedValue>;
  /** The setup steps as sent. */
  records: StepRecord[];
}

/**
 * Sends `plan`'s setup steps in order and binds their captures into its requests.
 * Throws {@linkcode StepFailure} when a step fails, naming it.
 */
export async function runSetup(plan: ResolvedPlan, options: SendStepOptions): Promise<Session> {
  const values = new Map<string, CapturedValue>();
  const records: StepRecord[] = [];
  for (const step of plan.setup ?? []) {
    const problem = await runStep(step, "setup", plan, values, records, options);
    if (problem !== undefined) {
      throw new StepFailure(problem, records, options.signal?.aborted ?? false);
    }
  }
  const requests = [];
  for (const r of plan.requests) {
    const bound = bindCaptures(r, values);
    if (!bound.ok) {
      const why = problemText(bound.problems[0]);
      throw new StepFailure(`request \`${printable(r.label)}\`: ${why}`, records);
    }
    requests.push(bound.value);
  }
  // A journey's steps read the setup's captures too; their own are rendered as the journey runs.
  const journeys = [];
  for (const j of plan.journeys ?? []) {
    const own = new Set(j.steps.flatMap((s) => s.captures.map((c) => c.name)));
    const steps = [];
    for (const s of j.steps) {
      const bound = bindCaptures(s, values, own);
      if (!bound.ok) {
        const why = problemText(bound.problems[0]);
        throw new StepFailure(`step \`${printable(s.label)}\`: ${why}`, records);
      }
      steps.push(bound.value);
    }
    journeys.push({ ...j, steps });
  }
  return {
    plan: { ...plan, requests, ...(plan.journeys ? { journeys } : {}) },
    values,
    records,
  };
}

/**
 * Sends `plan`'s teardown steps in order, after the load however it ended; a step that fails is
 * a warning and the others are still sent. A stop (`options.signal`) ends the step being sent and
 * sends no other: one warning names the step it stopped and those not sent, and `stopped` is true.
 */
export async function runTeardown(
  plan: ResolvedPlan,
  session: Session,
  options: SendStepOptions,
): Promise<{ records: StepRecord[]; warnings: string[]; stopped: boolean }> {
  const values = new Map(session.values);
  const records: StepRecord[] = [];
  const warnings: string[] = [];
  const steps = plan.teardown ?? [];
  for (const [k, step] of steps.entries()) {
    const missing = step.template === undefined ? [] : neededCaptures(step)
      .filter((name) => !values.has(name));
    if (missing.length) {
      warnings.push(
        `teardown step \`${printable(step.label)}\` was not sent: it needs ` +
          `${missing.map((n) => `\`${n}\``).join(", ")}, which a failed step did not capture`,
      );
      continue;
    }
    const problem = await runStep(step, "teardown", plan, values, records, options);
    if (problem === undefined) continue;
    if (options.signal?.aborted) {
      const rest = steps.slice(k + 1).map((s) => `\`${printable(s.label)}\``);
      warnings.push(
        `teardown step \`${printable(step.label)}\` (${step.method} ${printable(step.url)}) was ` +
          `stopped before it was answered${rest.length ? `; not sent: ${rest.join(", ")}` : ""}`,
      );
      return { records, warnings, stopped: true };
    }
    warnings.push(problem);
  }
  return { records, warnings, stopped: false };
}

/** Sends one step and takes its captures; the problem, when there is one, as a message. */
async function runStep(
  step: PlanStep,
  section: "setup" | "teardown",
  plan: ResolvedPlan,
  values: Map<string, CapturedValue>,
  records: StepRecord[],
  options: SendStepOptions,
): Promise<string | undefined> {
  const name = `${section} step \`${printable(step.label)}\``;
  const record: StepRecord = {
    section,
    name: step.label,
    method: step.method,
    url: step.url,
    durationMs: 0,
    ok: false,
    captures: step.captures.map((c) => ({ name: c.name, from: captureSourceText(c.from) })),
  };
  records.push(record);
  const fail = (problem: string) => {
    record.problem = problem;
    return `${name} (${step.method} ${printable(step.url)}) ${problem}`;
  };
  const bound = bindCaptures(step, values);
  if (!bound.ok) return fail(problemText(bound.problems[0]));
  const first = mixLabels(plan).requests[0];
  const http2Origin = plan.load.http === "2" && first ? new URL(first.url).origin : undefined;
  const exchange = await sendStep(bound.value, {
    ...options,
    ...(http2Origin ? { http2Origin } : {}),
  });
  record.durationMs = Math.round(exchange.durationMs * 1000) / 1000;
  const secrets = secretForms([
    ...(plan.secretValues ?? []),
    ...[...values.values()].map((v) => v.text),
  ]);
  // A client error may quote the request (its URL holds captures, percent-encoded).
  if (!exchange.ok) {
    return fail(`failed: ${blotSecrets(problemText(exchange.problems[0]), secrets)}`);
  }
  const { status, response } = exchange.value;
  record.status = status;
  const body = () => `; its body: ${shownBody(response.bodyText, secrets)}`;
  if (!statusExpected(step.expect, status)) {
    return fail(`answered ${status} (${expectedText(step)})${body()}`);
  }
  for (const c of step.captures) {
    const v = captureValue(c.from, response);
    if (!v.ok) {
      const [why] = v.problems;
      const shown = why.showBody ? body() : "";
      return fail(
        `captured no \`${c.name}\` (${captureSourceText(c.from)}): ${problemText(why)}${shown}`,
      );
    }
    values.set(c.name, v.value);
  }
  record.ok = true;
  return undefined;
}

function expectedText(step: PlanStep): string {
  const all = [...step.expect.codes.map(String), ...step.expect.classes.map((c) => `${c}xx`)];
  return `expected ${all.join(" or ")}`;
}

function neededCaptures(step: PlanStep): string[] {
  const t = step.template!;
  return [t.target, ...t.headers.map((h) => h.parts), t.body ?? []].flat()
    .flatMap((p) => p.kind === "capture" ? [p.name] : []);
}
