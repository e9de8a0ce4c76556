/**
 * Validates a plan's located YAML tree into a {@linkcode ResolvedPlan}, collecting every problem.
 *
 * @module
 */
import type { YamlNode } from "./read/mod.ts";
import { warnInfeasible } from "./slo/mod.ts";
import { PlanReader } from "./read/mod.ts";
import { readSection } from "./read/mod.ts";
import type { PlanIssue, ResolvedPlan } from "./types.ts";
import { formatRatePerSec } from "./units.ts";
import { checkLabelCount } from "./requests/mod.ts";
import { readLoad } from "./validate_load.ts";
import { readRegression } from "./validate_regression.ts";
import { readSearch, warnSearchSteps } from "./validate_search.ts";
import { readService } from "./validate_service.ts";
import { readExports } from "./export/mod.ts";
import { isTraceHeader } from "./requests/mod.ts";
import { readSlos, type SloFollow } from "./slo/mod.ts";
import {
  grpcDefaultsOk,
  isGrpcTarget,
  type PlanContext,
  readDefaults,
  readRequests,
  readTarget,
  type RequestDefaults,
} from "./requests/mod.ts";
import { messageDraws, readGrpc, requestGrpcSections } from "./grpc/mod.ts";
import { grpcLoad } from "./validate_http.ts";
import { readData } from "./traffic/mod.ts";
import { readVars } from "./traffic/mod.ts";
import { templateScope, warnUnused } from "./traffic/mod.ts";
import { declaredCaptures, readSteps, readTrace, warnUnusedCaptures } from "./requests/mod.ts";

/**
 * Validates the tree of a plan file. The plan is returned only when there is no error; warnings
 * may come with it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseYaml } from "./read/mod.ts";
 * import { validatePlan } from "./validate_plan.ts";
 * const root = parseYaml("name: x\ntarget: http://127.0.0.1:8080\nrequests: [{ path: / }]\n" +
 *   "load: { stages: [{ rate: 10/s, duration: 5s }] }\n").root!;
 * const ctx = { env: () => undefined, fileSize: () => undefined, planDir: ".", requireEnv: true };
 * const { plan, issues } = validatePlan("x.yaml", root, ctx);
 * assert.equal(plan?.name, "x");
 * assert.equal(issues.filter((i) => i.severity === "error").length, 0);
 * ```
 */
export function validatePlan(
  file: string,
  root: YamlNode,
  world: PlanContext,
  follow?: SloFollow,
): { plan?: ResolvedPlan; issues: PlanIssue[] } {
  // Every value read from the environment is a secret: kept, so no message ever shows it.
  const secretValues = new Set<string>();
  const ctx: PlanContext = {
    ...world,
    env: (name) => {
      const value = world.env(name);
      if (value) secretValues.add(value);
      return value;
    },
  };
  const reader = new PlanReader(file);
  const f = readSection(reader, root, "", "plan");
  if (f === undefined) return { issues: reader.issues };
  const get = (k: string) => f.at(k);
  const name = f.get<string>("name");
  const description = f.get<string>("description");
  const target = get("target") ? readTarget(reader, get("target")!) : undefined;
  const targetNode = get("target");
  const written = targetNode?.kind === "scalar" && typeof targetNode.value === "string"
    ? targetNode.value
    : "";
  const grpcTarget = target !== undefined && isGrpcTarget(written);
  // The plan's `grpc` and each request's own: their files make one schema.
  const sections = [
    ...(f.has("grpc")
      ? [{ node: get("grpc")!, path: "grpc", line: f.entries.get("grpc")!.keyPos.line }]
      : []),
    ...(get("requests") ? requestGrpcSections(get("requests")!) : []),
  ];
  const grpc = grpcTarget ? readGrpc(reader, sections, ctx, /^grpcs:/i.test(written)) : undefined;
  if (grpcTarget && sections.length === 0) {
    reader.error(
      targetNode!,
      "target",
      "a gRPC target needs the services' `.proto` files",
      "add e.g. `grpc: { proto: [protos/helloworld.proto] }`",
    );
  } else if (f.has("grpc") && target !== undefined && !grpcTarget) {
    reader.error(
      get("grpc")!,
      "grpc",
      "`grpc` goes with a gRPC target",
      "write the target as `grpc://host:port` (or `grpcs://` for TLS)",
    );
  }
  const data = get("data") ? readData(reader, get("data")!, ctx) : [];
  const vars = get("vars") ? readVars(reader, get("vars")!) : [];
  const scope = templateScope(reader, get("data"), get("vars"), data, vars, ctx);
  // The measured requests (and the defaults) read every setup capture; teardown's come later.
  const later = declaredCaptures(get("teardown"), "teardown");
  const measuredScope = {
    ...scope,
    captures: new Set(declaredCaptures(get("setup"), "setup").map((c) => c.name)),
    capturedLater: new Map(later.map((c) => [c.name, c.step])),
  };
  if (grpcTarget && get("defaults")) grpcDefaultsOk(reader, get("defaults")!);
  const defaults: RequestDefaults = {
    ...get("defaults") ? readDefaults(reader, get("defaults")!, measuredScope) : { headers: [] },
    ...(grpc ? { grpc } : {}),
    ...(grpcTarget ? { grpcTarget, draws: messageDraws(vars, data) } : {}),
  };
  const { requests, labels, journeys } = get("requests")
    ? readRequests(reader, get("requests")!, target, defaults, ctx, measuredScope)
    : { requests: undefined, labels: undefined, journeys: [] };
  // Every request the load sends: the single ones and each journey's steps.
  const sent = [...(requests ?? []), ...journeys.flatMap((j) => j.steps)];
  const setup = get("setup")
    ? readSteps(reader, get("setup")!, "setup", target, defaults, ctx, scope, [])
    : [];
  const teardown = get("teardown")
    ? readSteps(reader, get("teardown")!, "teardown", target, defaults, ctx, scope, [
      ...setup.flatMap((s) => s.captures.map((c) => c.name)),
    ])
    : [];
  // `trace` draws its ids from the seed too (an explicit `trace: false` does not).
  const traceNode = get("trace");
  const traced = traceNode !== undefined &&
    !(traceNode.kind === "scalar" && traceNode.value === false);
  const seedsDraws = vars.length > 0 || data.some((d) => d.order !== "sequence") || traced;
  const read = get("load") ? readLoad(reader, get("load")!, seedsDraws) : {};
  const { binding } = read;
  const load = read.load && grpcTarget ? grpcLoad(reader, get("load")!, read.load) : read.load;
  if (f.has("requests")) checkLabelCount(reader, f.entries.get("requests")!);
  const requestsOk = requests !== undefined &&
    !reader.issues.some((i) => i.path.startsWith("requests") && i.severity === "error");
  if (requestsOk) warnUnused(reader, get("data"), get("vars"), data, vars, sent);
  const sentOk = requestsOk &&
    !reader.issues.some((i) =>
      /^(setup|teardown|defaults)\b/.test(i.path) && i.severity === "error"
    );
  if (sentOk && (setup.length || teardown.length)) {
    const nodes = { setup: get("setup"), teardown: get("teardown") };
    warnUnusedCaptures(reader, nodes, [...sent, ...setup, ...teardown]);
  }
  const allowErrors = f.get<boolean>("allow_errors");
  const regression = get("regression") ? readRegression(reader, get("regression")!) : undefined;
  const search = get("search") ? readSearch(reader, get("search")!) : undefined;
  const failFast = f.get<boolean>("fail_fast");
  const trace = get("trace") ? readTrace(reader, get("trace")!) : undefined;
  const ownTrace = sent.find((r) => r.headers.some((h) => isTraceHeader(h.name)));
  if (trace && ownTrace) {
    reader.warn(
      get("trace")!,
      "trace",
      `\`trace\` replaces the \`traceparent\` and \`tracestate\` headers of \`${ownTrace.label}\``,
      "remove them from the requests, or `trace` from the plan",
    );
  }
  if (trace && load && !load.seedPerRun) {
    // The ids are the seed's and n's: every run with this seed sends the same ones.
    reader.warn(
      get("trace")!,
      "trace",
      `every run of this plan sends the same trace ids (\`load.seed: ${load.seed}\` fixes them), ` +
        "so a tracing backend files the spans of all its runs under each id",
      "leave `load.seed` out: each run draws its own seed (result.json records it; `--seed N` " +
        "replays one)",
    );
  }
  const service = get("service") ? readService(reader, get("service")!, ctx, scope) : undefined;
  const exports = get("export") ? readExports(reader, get("export")!, scope) : [];
  const slos = get("slo")
    ? readSlos(reader, get("slo")!, {
      load,
      stages: binding,
      requests: requestsOk ? requests : undefined,
      labels,
      journeys: journeys.map((j) => j.name),
      journeyMix: journeys.map((j) => ({
        name: j.name,
        weight: j.weight,
        steps: j.steps.map((st) => st.label),
      })),
      checks: sent.flatMap((r) => (r.checks ?? []).map((c) => ({ label: r.label, text: c.text }))),
      hasSearch: get("search") !== undefined,
      ...(follow ? { follow } : {}),
    })
    : [];

  for (const slo of slos) {
    if (slo.metric.kind === "sustainable_rate" && search && slo.bound > search.maxPerSec) {
      const list = get("slo")!;
      const item = list.kind === "seq"
        ? list.items.find((i) => i.pos.line === slo.line) ?? list
        : list;
      reader.error(
        item,
        "slo",
        `\`${slo.text}\` cannot pass: the search stops at \`max: ${
          formatRatePerSec(search.maxPerSec)
        }\``,
        `raise \`search.max\` to at least ${formatRatePerSec(slo.bound)}`,
      );
    }
  }

  if (search && !reader.issues.some((i) => i.severity === "error")) {
    warnSearchSteps(reader, get("search")!, search, slos);
  }

  // Whether the stages can work as written is worth saying only of a plan that is otherwise valid.
  if (load !== undefined && !reader.issues.some((i) => i.severity === "error")) {
    warnInfeasible(reader, get("load")!, load, slos);
  }

  const failed = reader.issues.some((i) => i.severity === "error");
  if (failed || name === undefined || requests === undefined || load === undefined) {
    return { issues: reader.issues };
  }
  const plan: ResolvedPlan = {
    name,
    ...(description === undefined ? {} : { description }),
    file,
    // A gRPC target is kept as written (`grpc://…`); its calls' URLs are its http(s) form.
    ...(target === undefined
      ? {}
      : { target: grpcTarget ? grpcTargetText(target, written) : target }),
    requests,
    ...(journeys.length ? { journeys } : {}),
    ...(setup.length ? { setup } : {}),
    ...(teardown.length ? { teardown } : {}),
    load,
    slos,
    ...(allowErrors ? { allowErrors: true } : {}),
    ...(data.length ? { data } : {}),
    ...(vars.length ? { vars } : {}),
    ...(regression === undefined ? {} : { regression }),
    ...(search === undefined ? {} : { search }),
    ...(failFast ? { failFast } : {}),
    ...(trace === undefined ? {} : { trace }),
    ...(service === undefined ? {} : { service }),
    ...(exports.length ? { export: exports } : {}),
    ...(secretValues.size ? { secretValues: [...secretValues] } : {}),
    ...(grpc ? { grpc: grpc.schema } : {}),
  };
  return { plan, issues: reader.issues };
}

/** A gRPC target's printable form: its scheme as written on the normalised URL. */
function grpcTargetText(target: string, written: string): string {
  return target.replace(/^https?:/, written.slice(0, written.indexOf(":") + 1).toLowerCase());
}
