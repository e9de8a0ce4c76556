/**
 * The values of a result document, checked once when it is read, before any command adds,
 * merges, judges or prints them: counts are whole numbers from 0 that add up as the recorder keeps
 * them (runner/model/request_counts.ts), durations, rates and latencies are finite numbers from
 * 0, the protocol is one a run speaks (streams per connection only with HTTP/2), the machine's
 * contention (optional) holds figures from 0, a known source and a share from 0 to 1, the stages
 * run at their plan's rates for its lengths, and every histogram decodes and holds as many values
 * as its `count` says; the first bodies of unexpected statuses (optional) are of the plan's labels,
 * statuses they do not expect, once each, bounded. A problem is named by its JSON
 * path and, for a histogram or counts, by its stage and label. Pure.
 *
 * @module
 */
import { decodeHistogram } from "../hdr/mod.ts";
import {
  MAX_STREAMS_PER_CONNECTION,
  type RequestCounts,
  type RunContention,
  type RunProtocol,
} from "../model/mod.ts";
import { addCounts, countsProblem, emptyCounts, statusKey, statusOfKey } from "../model/mod.ts";
import { unexpectedBodiesProblem } from "./unexpected_bodies.ts";

type Doc = Record<string, unknown>;

/** What a stage as it ran takes from its plan's stage. */
const STAGE_PLAN_FIELDS = ["fromPerSec", "toPerSec", "durationMs"];
const COUNT_FIELDS = ["scheduled", "sent", "completed", "ok", "bytesSent", "bytesReceived"];
const PROTOCOLS: readonly string[] = ["http/1.1", "h2", "h2c"] satisfies RunProtocol[];
const HEALTH_HISTOGRAMS = [
  "sendLag",
  "dispatchLag",
  "queueWait",
  "stepLag",
  "connectTime",
  "engineStall",
  "platformHiccup",
];
const CONTENTION_FIGURES = ["pressureMs", "stealMs", "serviceWaitMs"];
const CONTENTION_SOURCES: readonly string[] = [
  "service",
  "pressure",
  "none",
] satisfies RunContention["source"][];

/**
 * The first value of `doc` (a parsed result with every section) that no run could have written, as
 * a sentence starting with its JSON path, or undefined when every value holds.
 */
export function resultProblem(doc: Doc): string | undefined {
  const run = isObject(doc.run) ? doc.run : {};
  const complete = run.complete === true;
  const stages = listOf(doc.stages, "stages");
  const intervals = listOf(doc.intervals, "intervals");
  if (typeof stages === "string") return stages;
  if (typeof intervals === "string") return intervals;
  // Stages before the totals: a problem is named where it is, not where it is added up.
  return amount(run.durationMs, "run.durationMs") ??
    protocolProblem(run) ??
    first(stages, (s, i) => stageProblem(s, `stages[${i}]`, complete)) ??
    planStagesProblem(doc.plan, stages) ??
    group(doc.totals, "totals", "the whole run", complete) ??
    sumProblem(doc.totals, stages, "totals", "the whole run", "stages") ??
    first(intervals, (s, i) => stageProblem(s, `intervals[${i}]`, complete)) ??
    healthProblem(doc.health) ??
    unexpectedBodiesProblem(doc.unexpectedBodies, doc.plan);
}

/**
 * The run's protocol, when it says one, its streams per connection, which only HTTP/2 has, and
 * its gRPC mark, `true` on an HTTP/2 run alone.
 */
function protocolProblem(run: Doc): string | undefined {
  const { protocol, maxStreams, grpc } = run;
  if (protocol !== undefined && !PROTOCOLS.includes(String(protocol))) {
    return `run.protocol is ${shown(protocol)}: it is one of ${
      PROTOCOLS.map((p) => JSON.stringify(p)).join(", ")
    }`;
  }
  if (grpc !== undefined && grpc !== true) {
    return `run.grpc is ${shown(grpc)}: it is true or absent`;
  }
  if (grpc === true && protocol !== "h2" && protocol !== "h2c") {
    return `run.grpc is set on a run over ${protocol ?? "http/1.1"}: gRPC runs over HTTP/2`;
  }
  if (maxStreams === undefined) return undefined;
  if (protocol !== "h2" && protocol !== "h2c") {
    return `run.maxStreams is set on a run over ${protocol ?? "http/1.1"}: only HTTP/2 has streams`;
  }
  const whole = Number.isSafeInteger(maxStreams) && (maxStreams as number) >= 1 &&
    (maxStreams as number) <= MAX_STREAMS_PER_CONNECTION;
  return whole
    ? undefined
    : `run.maxStreams is ${shown(maxStreams)}: it is a whole number from 1 ` +
      `to ${MAX_STREAMS_PER_CONNECTION}`;
}

/** A stage or an interval: its own figures, its counts and histograms, then its labels'. */
function stageProblem(value: unknown, path: string, complete: boolean): string | undefined {
  if (!isObject(value)) return `${path} is not an object`;
  const interval = path.startsWith("intervals");
  const where = interval
    ? `interval at ${Number(value.startMs) / 1000} s`
    : `stage ${JSON.stringify(value.name)}`;
  const figures = interval
    ? ["startMs", "durationMs", "intendedPerSec", "sentPerSec", "completedPerSec"]
    : ["startMs", "durationMs", "fromPerSec", "toPerSec"];
  const labels = listOf(value.labels, `${path}.labels`);
  if (typeof labels === "string") return labels;
  // Labels first: a problem is named as closely as it can be.
  return first(figures, (f) => amount(value[f], `${path}.${f}`)) ??
    (interval ? contentionFigures(value.contention, `${path}.contention`) : undefined) ??
    first(
      labels,
      (l, i) =>
        group(
          l,
          `${path}.labels[${i}]`,
          `${where}, label ${JSON.stringify(labelOf(l))}`,
          complete,
        ) ??
          checksProblem((l as Doc).checks, `${path}.labels[${i}].checks`),
    ) ??
    group(value, path, where, complete) ??
    sumProblem(value, labels, path, where, "labels");
}

/**
 * The stages as they ran against the stored plan's: the recorder takes each stage's rates and
 * length from the plan that ran (a shard's too: its share of the schedule is of the whole plan's
 * rate), so a result whose stages differ from its plan's was not written by a run.
 */
function planStagesProblem(plan: unknown, stages: unknown[]): string | undefined {
  const load = isObject(plan) && isObject(plan.load) ? plan.load : {};
  const planned = listOf(load.stages, "plan.load.stages");
  if (typeof planned === "string") return planned;
  if (planned.length !== stages.length) {
    return `stages has ${stages.length} stages, but its plan's plan.load.stages has ` +
      `${planned.length}: a run's stages are its plan's`;
  }
  return first(stages, (stage, i) => {
    const p = planned[i];
    if (!isObject(p)) return `plan.load.stages[${i}] is not an object`;
    const s = stage as Doc;
    const field = STAGE_PLAN_FIELDS.find((f) => s[f] !== p[f]);
    return field === undefined
      ? undefined
      : `stages[${i}].${field} (stage ${JSON.stringify(s.name)}) is ${
        shown(s[field])
      }, but its plan's plan.load.stages[${i}].${field} is ${
        shown(p[field])
      }: a run's stages are its plan's`;
  });
}

/** A label's `checks` (optional): each a text and line, failed no more than evaluated. */
function checksProblem(value: unknown, path: string): string | undefined {
  if (value === undefined) return undefined;
  const checks = listOf(value, path);
  if (typeof checks === "string") return checks;
  return first(checks, (c, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(c) || typeof c.text !== "string") return `${at} has no \`text\``;
    return first(["line", "evaluated", "failed"], (f) => count(c[f], `${at}.${f}`)) ??
      ((c.failed as number) > (c.evaluated as number)
        ? `${at}: more failed (${c.failed}) than evaluated (${c.evaluated})`
        : undefined);
  });
}

/** Counts and the two latency histograms of one group of requests. */
function group(value: unknown, path: string, where: string, complete: boolean) {
  if (!isObject(value)) return `${path} is not an object`;
  const counts = countsValues(value.counts, `${path}.counts`);
  if (counts) return counts;
  const problem = countsProblem(value.counts as RequestCounts, complete);
  if (problem) return `${path}.counts (${where}): ${problem}`;
  return histogram(value.response, `${path}.response`, `${where}, response time`) ??
    histogram(value.service, `${path}.service`, `${where}, service time`);
}

/**
 * What is wrong with a stored `counts` object's values (at `path`), if anything: each count a
 * whole number from 0 to 2^53, errors, status codes and gRPC messages (when counted) too; each
 * status keyed as the recorder keys it: an HTTP status by its number (`"503"`), a gRPC status by
 * its name (`"UNAVAILABLE"`, runner/model/grpc_status.ts). Shared with the baseline reader.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { countsValues } from "./result_problem.ts";
 * const counts = { scheduled: 5, sent: 5, completed: -5, ok: 0, bytesSent: 0, bytesReceived: 0, errors: {}, statusCodes: {} };
 * assert.equal(countsValues(counts, "counts"), "counts.completed is -5: a count is a whole number from 0 to 2^53");
 * ```
 */
export function countsValues(value: unknown, path: string): string | undefined {
  if (!isObject(value)) return `${path} is not an object`;
  if (!isObject(value.errors)) return `${path}.errors is not an object`;
  if (!isObject(value.statusCodes)) return `${path}.statusCodes is not an object`;
  return first(COUNT_FIELDS, (f) => count(value[f], `${path}.${f}`)) ??
    (value.messages === undefined ? undefined : count(value.messages, `${path}.messages`)) ??
    first(Object.entries(value.errors), ([k, n]) => count(n, `${path}.errors.${k}`)) ??
    first(Object.keys(value.statusCodes), (k) => statusKeyProblem(k, `${path}.statusCodes`)) ??
    first(Object.entries(value.statusCodes), ([k, n]) => count(n, `${path}.statusCodes.${k}`));
}

/** A status key no run writes: neither an HTTP status's number nor a gRPC status's name. */
function statusKeyProblem(key: string, path: string): string | undefined {
  const status = statusOfKey(key);
  if (status > 0 && statusKey(status) === key) return undefined;
  return `${path} has the key ${JSON.stringify(key)}: a status is counted by its HTTP number ` +
    '("503") or its gRPC name ("UNAVAILABLE")';
}

function histogram(value: unknown, path: string, where: string): string | undefined {
  if (!isObject(value)) return `${path} is not an object`;
  if (!isObject(value.percentilesUs)) return `${path}.percentilesUs is not an object`;
  const bad = count(value.count, `${path}.count`) ??
    first(["minUs", "maxUs", "meanUs"], (f) => amount(value[f], `${path}.${f}`)) ??
    first(Object.entries(value.percentilesUs), ([p, v]) => amount(v, `${path}.percentilesUs.${p}`));
  if (bad) return bad;
  if (typeof value.hdr !== "string") return `${path}.hdr is not a string`;
  let held: number;
  try {
    held = decodeHistogram(value.hdr).totalCount;
  } catch (e) {
    return `${path}.hdr (${where}) is damaged: ${(e as Error).message}`;
  }
  return held === value.count
    ? undefined
    : `${path} (${where}): count ${value.count} but its histogram holds ${held}`;
}

function healthProblem(value: unknown): string | undefined {
  if (!isObject(value)) return "health is not an object";
  const connections = isObject(value.connections) ? value.connections : {};
  const cpu = isObject(value.cpu) ? value.cpu : {};
  return first(
    HEALTH_HISTOGRAMS.filter((h) => value[h] !== undefined),
    (h) => histogram(value[h], `health.${h}`, `the tool's ${h}`),
  ) ??
    first(["opened", "peak"], (f) => count(connections[f], `health.connections.${f}`)) ??
    first(["userMs", "systemMs", "perRequestUs"], (f) => amount(cpu[f], `health.cpu.${f}`)) ??
    first(["intendedPerSec", "achievedPerSec"], (f) => amount(value[f], `health.${f}`)) ??
    runContention(value.contention);
}

/** An interval's or the run's contention figures (ms), each optional. */
function contentionFigures(value: unknown, path: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) return `${path} is not an object`;
  return first(
    CONTENTION_FIGURES.filter((f) => value[f] !== undefined),
    (f) => amount(value[f], `${path}.${f}`),
  );
}

/** The run's contention: its source, the service it names, its sums, share and worst second. */
function runContention(value: unknown): string | undefined {
  const path = "health.contention";
  if (value === undefined) return undefined;
  if (!isObject(value)) return `${path} is not an object`;
  if (!CONTENTION_SOURCES.includes(String(value.source))) {
    return `${path}.source is ${shown(value.source)}: it is one of ${
      CONTENTION_SOURCES.map((s) => JSON.stringify(s)).join(", ")
    }`;
  }
  const share = value.share;
  if (typeof share !== "number" || !(share >= 0 && share <= 1)) {
    return `${path}.share is ${shown(share)}: it is a fraction from 0 to 1`;
  }
  const worst = value.worst;
  return serviceProblem(value.service, `${path}.service`) ??
    contentionFigures(value, path) ??
    (worst === undefined
      ? undefined
      : !isObject(worst)
      ? `${path}.worst is not an object`
      : first(["startMs", "waitMs"], (f) => amount(worst[f], `${path}.worst.${f}`)));
}

function serviceProblem(value: unknown, path: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) return `${path} is not an object`;
  if (value.found !== "started" && value.found !== "listening_socket") {
    return `${path}.found is ${shown(value.found)}: it is "started" or "listening_socket"`;
  }
  if (typeof value.name !== "string") return `${path}.name is not a string`;
  if (!Array.isArray(value.pids)) return `${path}.pids is not a list`;
  return first(
    value.pids,
    (pid, i) =>
      Number.isSafeInteger(pid) && (pid as number) > 0
        ? undefined
        : `${path}.pids[${i}] is ${shown(pid)}: a process id is a whole number from 1`,
  );
}

/** Whether a group's counts are the sum of its parts' (a stage's labels, the run's stages). */
function sumProblem(
  whole: unknown,
  parts: unknown[],
  path: string,
  where: string,
  partsName: string,
): string | undefined {
  const counts = (whole as { counts: RequestCounts }).counts;
  const sum = emptyCounts();
  for (const p of parts) addCounts(sum, (p as { counts: RequestCounts }).counts);
  const flat = (c: RequestCounts): Record<string, number> => ({
    ...Object.fromEntries(COUNT_FIELDS.map((f) => [f, c[f as "ok"]])),
    ...Object.fromEntries(Object.entries(c.errors).map(([k, n]) => [`errors.${k}`, n])),
    ...Object.fromEntries(Object.entries(c.statusCodes).map(([k, n]) => [`statusCodes.${k}`, n])),
    ...(c.messages === undefined ? {} : { messages: c.messages }),
  });
  const have = flat(counts);
  const added = flat(sum);
  const field = [...new Set([...Object.keys(have), ...Object.keys(added)])]
    .find((f) => (have[f] ?? 0) !== (added[f] ?? 0));
  return field === undefined ? undefined : `${path}.counts (${where}): ${field} ` +
    `${have[field] ?? 0} is not the sum of its ${partsName}' (${added[field] ?? 0})`;
}

function count(value: unknown, path: string): string | undefined {
  return Number.isSafeInteger(value) && (value as number) >= 0
    ? undefined
    : `${path} is ${shown(value)}: a count is a whole number from 0 to 2^53`;
}

/** What is wrong with a stored figure (at `path`): it must be a finite number from 0. */
export function amount(value: unknown, path: string): string | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0
    ? undefined
    : `${path} is ${shown(value)}: it must be a finite number from 0`;
}

function shown(value: unknown): string {
  return value === undefined ? "missing" : JSON.stringify(value);
}

function listOf(value: unknown, path: string): unknown[] | string {
  return Array.isArray(value) ? value : `${path} is not a list`;
}

function labelOf(value: unknown): unknown {
  return isObject(value) ? value.label : undefined;
}

function first<T>(items: readonly T[], problem: (item: T, i: number) => string | undefined) {
  for (const [i, item] of items.entries()) {
    const p = problem(item, i);
    if (p !== undefined) return p;
  }
  return undefined;
}

function isObject(v: unknown): v is Doc {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
