/**
 * The plan language, described once: every section's keys with their kind, unit, bounds, default,
 * synonyms (names other tools use, common slips), the wording of a missing required key, and
 * what the key means. The generic reader (read_section.ts) reads every section by it: unknown and
 * required keys, and each scalar key by its kind, bounds and default; `plans/schema.json` is
 * generated from it (plan_schema.ts; a test keeps the committed file the generated one), so the
 * editor's schema and the validator cannot disagree about a key.
 *
 * What the table cannot say (ramps, the SLO grammar, bodies, URLs, templates) the section readers
 * add, with located errors; what a kind means to the schema is in plan_schema.ts.
 *
 * @module
 */
import {
  DEFAULT_WINDOW_MIB,
  MAX_STREAMS_PER_CONNECTION,
  MAX_WINDOW_MIB,
  SERVER_STREAMS_CAP,
} from "../../model/mod.ts";

/** A key's kind: what its value is. */
export type KeyKind =
  /** Text; `numbersAsText` reads a number as its text (`name: 2024`). */
  | { kind: "text"; minLength?: number; numbersAsText?: boolean }
  | { kind: "json" }
  /** An absolute URL; `grpc`: `grpc://` and `grpcs://` too (the plan's target). */
  | { kind: "url"; grpc?: boolean }
  /** A list of text (`grpc.proto`'s files); `minItems`: at least that many. */
  | { kind: "text_list"; minItems?: number }
  /** A gRPC call's request message: a mapping checked against the `.proto` (runner/plan/grpc). */
  | { kind: "message" }
  | { kind: "path" }
  | { kind: "method" }
  /** A duration; `positive`: above zero. */
  | { kind: "duration"; positive?: boolean }
  | { kind: "rate" }
  | { kind: "ramp" }
  | { kind: "integer"; min: number; max: number }
  | { kind: "integer_or_auto"; min: number; max: number }
  /** A number above 0 and at most `max`. */
  | { kind: "positive_number"; max: number }
  | { kind: "boolean" }
  /**
   * One of `values`; `noun` words the error (`unknown arrival …`), else `… is not one of …`;
   * `numbersAsText` reads a number as its text (`http: 2`, `http: 1.1`).
   */
  | { kind: "choice"; values: readonly string[]; noun?: string; numbersAsText?: boolean }
  | { kind: "headers" }
  | { kind: "statuses" }
  | { kind: "body" }
  /** A percentage; `hint` is shown when it does not parse. */
  | { kind: "percent_change"; hint?: string }
  | { kind: "slo_list" }
  /** A list of `of` sections; `or`: an item may be that section instead (a journey in `requests`). */
  | { kind: "list"; of: SectionName; or?: SectionName }
  /** What a response must show (`check:`): status, header, json, body, max_bytes. */
  | { kind: "checks" }
  /** A journey step's pause: a duration (`50ms`) or a range (`100ms..500ms`). */
  | { kind: "think" }
  /** A mapping of names to data sources (`data`): each a section, or just its file. */
  | { kind: "data_sources"; of: SectionName }
  /** A mapping of names to var specs (`vars`): `uuid`, `counter`, `{ int: [a, b] }`, `{ choice: [...] }`. */
  | { kind: "vars" }
  /** A mapping of names to what a setup step captures: `{ json: /pointer }` or `{ header: name }`. */
  | { kind: "captures" }
  /** An http(s) URL, or a port (1 to 65535): where a started service answers once ready. */
  | { kind: "url_or_port" }
  /** A mapping of environment variable names to values (text, numbers, true/false). */
  | { kind: "env" }
  /** `true`/`false`, or the `trace` section (`{ tracestate: "vendor=value" }`): W3C trace context. */
  | { kind: "trace" }
  | { kind: "section"; section: SectionName };

/** One key of a section. */
export type KeySpec = KeyKind & {
  key: string;
  /** What it means (the schema's description; shown by editors). */
  description?: string;
  /** The value used when the key is absent, as written in a plan. */
  default?: string | number | boolean;
  /** How a plan writes it, for the "add e.g." hint of a missing required key. */
  example?: string;
  /** Values shown as examples by editors. */
  examples?: readonly string[];
};

/** A mapping of the plan: its keys and how they go together. */
export interface SectionSpec {
  /** Where it sits in a plan (`""` for the top level), as issues name it. */
  path: string;
  keys: readonly KeySpec[];
  /** Keys that must be present. */
  required?: readonly string[];
  /** Groups of keys of which exactly one group is given whole (a stage: rate+duration or ramp+over). */
  variants?: readonly (readonly string[])[];
  /** Keys that may not be given together. */
  exclusive?: readonly (readonly string[])[];
  /** Names that mean a key of this section: other tools' names and common slips. */
  synonyms?: Readonly<Record<string, string>>;
  /** Keys that belong elsewhere in the plan, with where they go. */
  misplaced?: Readonly<Record<string, string>>;
  /** What a missing required key says: `{key}`, `{example}` and `{name}` (the section's). */
  missing?: { message: string; hint: string };
  /** At least this many keys. */
  minKeys?: number;
  description?: string;
}

/** The regression gate's metrics. */
export const REGRESSION_METRICS = [
  "p50",
  "p90",
  "p99",
  "p99.9",
  "max",
  "mean",
  "error_rate",
  "throughput",
] as const;

/** Where a start command goes. */
const SERVICE_HINT =
  'the command that starts the service goes under `service`: `service: { start: "npm start" }`';

const PLAN: SectionSpec = {
  path: "",
  description:
    "A tailgate load-test plan: target, requests, an open-model rate profile and SLOs. See docs/plan.md.",
  required: ["name", "requests", "load"],
  missing: { message: "the plan has no `{key}`", hint: "add e.g. `{example}`" },
  keys: [
    {
      key: "name",
      kind: "text",
      minLength: 1,
      numbersAsText: true,
      description: "Name of the plan, used in reports and baselines.",
      example: "name: checkout-api",
    },
    { key: "description", kind: "text" },
    {
      key: "target",
      kind: "url",
      grpc: true,
      description:
        "Base URL of the system under test; request paths are joined to it. `grpc://host:port` (h2c) or `grpcs://host:port` (TLS) for a plan of gRPC calls.",
      examples: ["http://127.0.0.1:8080", "grpc://127.0.0.1:50051"],
    },
    {
      key: "grpc",
      kind: "section",
      section: "grpc",
      description:
        "The `.proto` files of a plan whose requests are gRPC calls (`call:`), and their default deadline.",
    },
    { key: "defaults", kind: "section", section: "defaults" },
    {
      key: "data",
      kind: "data_sources",
      of: "data_source",
      description:
        "Data files whose rows feed templates: `{{users.id}}` takes column `id` of source `users`'s row for each request.",
    },
    {
      key: "vars",
      kind: "vars",
      description:
        "Values drawn afresh for each request, from the plan's `load.seed` and the request's index: `uuid`, `counter`, `{ int: [1, 20] }`, `{ choice: [eu, us] }`.",
    },
    {
      key: "setup",
      kind: "list",
      of: "step",
      description:
        "Requests sent once, in order, before the first stage (a login): not measured; `capture` takes values from their responses for `{{name}}` in later steps and in `requests`.",
    },
    {
      key: "requests",
      kind: "list",
      of: "request",
      or: "journey",
      example: "requests: [{ path: / }]",
    },
    {
      key: "teardown",
      kind: "list",
      of: "step",
      description:
        "Requests sent once, in order, after the last stage, also after a stopped or failed run: not measured; a failure is a warning.",
    },
    {
      key: "load",
      kind: "section",
      section: "load",
      example: "load: { stages: [{ rate: 100/s, duration: 30s }] }",
    },
    {
      key: "slo",
      kind: "slo_list",
      examples: [
        "p99.9 < 10ms at 20k/s",
        "max < 1s",
        "error_rate < 0.1%",
        "throughput >= 19.5k/s",
        'p99 < 50ms for "POST /orders"',
      ],
    },
    {
      key: "allow_errors",
      kind: "boolean",
      default: false,
      description:
        "Let failed requests pass: without an `error_rate` SLO over all requests, a run in which more than 1% of the judged requests failed gets the implicit gate `error_rate <= 1%` unless this is true (docs/gates.md).",
    },
    { key: "regression", kind: "section", section: "regression" },
    { key: "search", kind: "section", section: "search" },
    {
      key: "fail_fast",
      kind: "boolean",
      default: false,
      description:
        "Stop the run once an SLO's failure is certain, whatever the rest of the requests do (as `tailgate run --fail-fast`; `--no-fail-fast` overrides it): the result holds what ran and the SLO that stopped it, and the run fails (exit 1).",
    },
    { key: "service", kind: "section", section: "service" },
    {
      key: "export",
      kind: "list",
      of: "exporter",
      description:
        "Where the run's metrics go once it ends (as `--export`): each `{ prometheus: URL }` (remote write) or `{ otlp: URL }` (OTLP/HTTP base URL), with `headers` if the receiver needs them. A receiver that is down is a warning, never a failed run (docs/reporters.md).",
    },
    {
      key: "trace",
      kind: "trace",
      default: false,
      description:
        "Send a W3C `traceparent` on every request (a trace id drawn from the seed and the request's index: reproducible, unique per request, sampled), as `tailgate run --trace`; `{ tracestate: \"vendor=value\" }` sends a `tracestate` too. The result names each stage and label's slowest requests by trace id.",
    },
  ],
  synonyms: {
    exports: "export",
    exporters: "export",
    outputs: "export",
    ignore_errors: "allow_errors",
    allow_failures: "allow_errors",
    slos: "slo",
    objectives: "slo",
    url: "target",
    base_url: "target",
    baseurl: "target",
    host: "target",
    request: "requests",
    scenarios: "requests",
    headers: "defaults",
    variables: "vars",
    var: "vars",
    feeders: "data",
    datasets: "data",
    payload: "data",
    stages: "load",
    title: "name",
    abortonfail: "fail_fast",
    traceparent: "trace",
    tracing: "trace",
  },
  misplaced: {
    rate:
      "a stage's `rate` goes under `load.stages`, e.g. `load: { stages: [{ rate: 1k/s, duration: 30s }] }`",
    rate_limit: "the rate goes in a stage under `load.stages`: `- { rate: 1k/s, duration: 30s }`",
    duration: "a stage's `duration` goes under `load.stages`",
    ramp: "a `ramp` is a stage under `load.stages`",
    connections: "`connections` goes under `load`",
    timeout: "`timeout` goes under `defaults` (or on one request)",
    method: "`method` goes on a request under `requests`",
    path: "`path` goes on a request under `requests`",
    start: SERVICE_HINT,
    command: SERVICE_HINT,
    ready: "`ready` goes under `service`: `service: { start: ..., ready: 8080 }`",
  },
};

const DEFAULTS: SectionSpec = {
  path: "defaults",
  keys: [
    { key: "headers", kind: "headers" },
    {
      key: "timeout",
      kind: "duration",
      positive: true,
      default: "10s",
      description:
        "Per-request timeout (default 10s). A timed-out request is an error and is recorded at its elapsed time.",
    },
  ],
  synonyms: { timeout_ms: "timeout" },
};

/** Keys that do not go with a gRPC call (`call`). */
const CALL_EXCLUSIVE = [["call", "path"], ["call", "url"], ["call", "method"], ["call", "body"], [
  "message",
  "body",
]] as const;

const REQUEST: SectionSpec = {
  path: "requests[]",
  exclusive: [["path", "url"], ...CALL_EXCLUSIVE],
  keys: [
    {
      key: "name",
      kind: "text",
      description: "Label results are grouped by (default: METHOD path).",
    },
    { key: "method", kind: "method", default: "GET" },
    { key: "path", kind: "path", description: "Joined to the plan's target." },
    { key: "url", kind: "url", description: "An absolute URL instead of target + path." },
    { key: "headers", kind: "headers" },
    { key: "body", kind: "body" },
    {
      key: "call",
      kind: "text",
      minLength: 1,
      description:
        "A gRPC call instead of an HTTP request: `package.Service/Method` (or `package.Service.Method`), found in the plan's `grpc.proto` files.",
      examples: ["helloworld.Greeter/SayHello"],
    },
    {
      key: "metadata",
      kind: "headers",
      description:
        "The gRPC call's metadata: as `headers` (`${env.NAME}` secrets, `{{…}}` templates), over the plan's default headers.",
    },
    {
      key: "message",
      kind: "message",
      description:
        "The gRPC call's request message, as YAML/JSON (proto3 JSON names and forms); `{{…}}` in its strings draw values.",
    },
    {
      key: "deadline",
      kind: "duration",
      positive: true,
      description:
        "The gRPC call's deadline, sent as `grpc-timeout` (default: its own or the plan's `grpc.deadline`, else none).",
    },
    {
      key: "grpc",
      kind: "section",
      section: "grpc",
      description:
        "The call's own `.proto` files (they join the plan's into one schema) and deadline.",
    },
    {
      key: "weight",
      kind: "positive_number",
      // Weights are relative: 1000000 to 1 sends one request in a million, and the cap keeps any
      // sum of weights finite.
      max: 1_000_000,
      default: 1,
      description: "Relative share of the mix (above 0, at most 1000000).",
    },
    {
      key: "expect",
      kind: "statuses",
      description: "Statuses that count as success (default 2xx).",
    },
    { key: "timeout", kind: "duration", positive: true },
    {
      key: "check",
      kind: "checks",
      description:
        "What the response must show beyond its status: `status`, `header: { name: regex }`, `json: { /pointer: value | exists | absent | { lt, gt, eq, matches } }`, `body: { contains | matches }`, `max_bytes`. A failed check is the outcome `check_failed`.",
    },
  ],
  synonyms: {
    label: "name",
    uri: "url",
    rpc: "call",
    status: "expect",
    expect_status: "expect",
    checks: "check",
    assert: "check",
    validate: "check",
  },
};

/** A journey of the request mix: ordered steps run as one unit per arrival. */
const JOURNEY: SectionSpec = {
  path: "requests[]",
  required: ["journey", "steps"],
  missing: { message: "the journey has no `{key}`", hint: "add e.g. `{example}`" },
  keys: [
    {
      key: "journey",
      kind: "text",
      minLength: 1,
      numbersAsText: true,
      description:
        'The journey\'s name: its steps are labelled `NAME / STEP`, and `journey.p99 < 200ms for "NAME"` judges it whole.',
      example: "journey: order",
    },
    { ...REQUEST.keys.find((k) => k.key === "weight")!, key: "weight" },
    {
      key: "steps",
      kind: "list",
      of: "journey_step",
      description:
        "The requests of one journey, sent in order: step k+1 is due when step k completes plus its `think`.",
      example: "steps: [{ name: create, method: POST, path: /items }]",
    },
  ],
  synonyms: { flow: "journey", scenario: "journey", sequence: "steps", chain: "steps" },
  misplaced: Object.fromEntries(
    ["name", "method", "path", "url", "headers", "body", "expect", "timeout", "check"].map(
      (k) => [k, `\`${k}\` goes on a step under \`steps\``],
    ),
  ),
};

/** A setup or teardown step: a request's keys but `weight`, and `capture`. */
const STEP: SectionSpec = {
  path: "setup[]",
  exclusive: [["path", "url"], ...CALL_EXCLUSIVE],
  keys: [
    ...REQUEST.keys.filter((k) => k.key !== "weight"),
    {
      key: "capture",
      kind: "captures",
      description:
        "Values taken from the response, each `{ json: /pointer }` (RFC 6901, into a JSON body) or `{ header: name }`: secret, used as `{{name}}`.",
    },
  ],
  synonyms: { ...REQUEST.synonyms, captures: "capture", extract: "capture", save: "capture" },
  misplaced: {
    weight: "a step is sent once, in order: `weight` shares out the measured `requests`",
  },
};

/** A journey's step: a request's keys but `weight`, with `capture`, `check` and `think`. */
const JOURNEY_STEP: SectionSpec = {
  path: "requests[].steps[]",
  exclusive: [["path", "url"], ...CALL_EXCLUSIVE],
  keys: [
    ...STEP.keys.map((k) =>
      k.key === "capture"
        ? {
          ...k,
          description:
            'Values taken from the response for `{{name}}` in later steps of this journey: `{ json: /pointer }`, `{ header: name }` or `{ regex: "id=(\\d+)" }` (one group).',
        }
        : k
    ),
    {
      key: "think",
      kind: "think",
      description:
        "The pause after the previous step completes, before this one is due: `500ms`, or a range drawn from the seed, `100ms..500ms`.",
    },
  ],
  synonyms: {
    ...STEP.synonyms,
    pause: "think",
    think_time: "think",
    wait: "think",
    sleep: "think",
  },
  misplaced: {
    weight: "a step runs once in its journey: `weight` goes on the journey",
    steps: "a journey's steps are one list: a step holds no `steps`",
  },
};

const LOAD: SectionSpec = {
  path: "load",
  required: ["stages"],
  missing: { message: "`load` needs `{key}`", hint: "e.g. `{example}`" },
  keys: [
    { key: "connections", kind: "integer", min: 1, max: 100_000, default: 50 },
    {
      key: "max_connections",
      kind: "integer",
      min: 1,
      max: 100_000,
      description: "Connections may grow up to this when requests queue (default: connections).",
    },
    {
      key: "arrival",
      kind: "choice",
      values: ["constant", "poisson"],
      noun: "arrival",
      default: "constant",
    },
    {
      key: "seed",
      kind: "integer",
      min: 0,
      max: 2 ** 32 - 1,
      description:
        "Seed of the poisson arrival generator and of every drawn value (vars, random and shuffled data): the same seed sends the same requests. Without it each run draws a fresh seed, which its result records as load.seed.",
    },
    { key: "workers", kind: "integer_or_auto", min: 1, max: 256, default: "auto" },
    {
      key: "http",
      kind: "choice",
      values: ["1.1", "2"],
      noun: "HTTP version",
      numbersAsText: true,
      default: "1.1",
      description:
        "The HTTP version sent: 1.1, or 2: h2 agreed by ALPN over https:// (a server that does not agree is an error before the run, never a silent fallback), h2c with prior knowledge over http://.",
    },
    {
      key: "max_streams",
      kind: "integer",
      min: 1,
      max: MAX_STREAMS_PER_CONNECTION,
      description:
        `With \`http: 2\`: the most concurrent streams per connection (default: what the server's SETTINGS allow, at most ${SERVER_STREAMS_CAP}).`,
    },
    {
      key: "window_mib",
      kind: "integer",
      min: 1,
      max: MAX_WINDOW_MIB,
      description:
        `With \`http: 2\`: the flow-control window this client offers each stream and the connection, in MiB (default ${DEFAULT_WINDOW_MIB}); it opens it again as responses consume half of it.`,
    },
    {
      key: "stages",
      kind: "list",
      of: "stage",
      example: "stages: [{ rate: 1k/s, duration: 30s }]",
    },
  ],
  synonyms: {
    concurrency: "connections",
    conns: "connections",
    threads: "workers",
    max_conns: "max_connections",
    stage: "stages",
    profile: "stages",
    distribution: "arrival",
    http_version: "http",
    protocol: "http",
    streams: "max_streams",
    max_concurrent_streams: "max_streams",
    streams_per_connection: "max_streams",
    window: "window_mib",
    flow_window: "window_mib",
  },
};

const STAGE: SectionSpec = {
  path: "load.stages[]",
  variants: [["rate", "duration"], ["ramp", "over"]],
  keys: [
    { key: "name", kind: "text", numbersAsText: true },
    { key: "rate", kind: "rate" },
    { key: "duration", kind: "duration", positive: true },
    { key: "ramp", kind: "ramp", examples: ["1k/s -> 30k/s"] },
    { key: "over", kind: "duration" },
    {
      key: "warmup",
      kind: "boolean",
      default: false,
      description: "Warmup stages run but are excluded from gates.",
    },
  ],
  synonyms: {
    rps: "rate",
    qps: "rate",
    rate_limit: "rate",
    throughput: "rate",
    time: "duration",
    for: "duration",
    length: "duration",
    warm_up: "warmup",
    "warm-up": "warmup",
  },
};

const REGRESSION: SectionSpec = {
  path: "regression",
  description:
    "Regression gate: metric -> the change that counts (percent; percentage points for error_rate). Listing metrics replaces the defaults (p50 10%, p99 10%, p99.9 20%, error_rate 0.1%, throughput 5%).",
  minKeys: 1,
  keys: REGRESSION_METRICS.map((metric) => ({
    key: metric,
    kind: "percent_change" as const,
    hint: "write the change that counts, e.g. `10%`",
  })),
  synonyms: { "p99_9": "p99.9", errors: "error_rate" },
};

/** The longest `tracestate` sent (W3C trace context: at most 512 characters, 32 members). */
export const MAX_TRACESTATE_CHARS = 512;

const TRACE: SectionSpec = {
  path: "trace",
  description: "W3C trace context on every request, with a `tracestate`.",
  keys: [
    {
      key: "tracestate",
      kind: "text",
      minLength: 1,
      description:
        "The `tracestate` header sent with every `traceparent`: comma-separated `key=value` members (at most 32, 512 characters), e.g. `vendor=value`.",
      examples: ["vendor=value"],
    },
  ],
  synonyms: { state: "tracestate", trace_state: "tracestate" },
};

const SEARCH: SectionSpec = {
  path: "search",
  description:
    "Capacity search (`tailgate search`): the highest rate at which the plan's SLOs hold, found by doubling from `from` until a step fails, then bisecting, then a soak at the rate found.",
  required: ["from", "max"],
  missing: { message: "`search` needs `{key}`", hint: "add e.g. `{key}: 1k/s`" },
  keys: [
    { key: "from", kind: "rate", description: "The first rate tried.", example: "from: 1k/s" },
    {
      key: "max",
      kind: "rate",
      description: "The highest rate tried; if it passes, the server sustains at least that.",
      example: "max: 100k/s",
    },
    {
      key: "step",
      kind: "duration",
      default: "10s",
      description: "Each step's measured length (an inconclusive step is repeated twice as long).",
    },
    { key: "warmup", kind: "duration", default: "2s", description: "Each step's warmup." },
    {
      key: "cooldown",
      kind: "duration",
      default: "2s",
      description: "Pause after each step, so a backlog the server built drains first.",
    },
    {
      key: "precision",
      kind: "percent_change",
      hint: "e.g. `5%`",
      default: "5%",
      description: "Bisect until the failing rate is within this of the passing one.",
    },
    {
      key: "soak",
      kind: "duration",
      default: "30s",
      description: "A longer run at the rate found, to confirm it (0s: none).",
    },
  ],
  synonyms: {
    start: "from",
    min: "from",
    until: "max",
    max_rate: "max",
    step_duration: "step",
    duration: "step",
    cool_down: "cooldown",
    warm_up: "warmup",
    tolerance: "precision",
    confirm: "soak",
  },
  misplaced: {
    require: "the gate is an SLO: under `slo`, write e.g. `sustainable_rate >= 20k/s`",
    min_rate: "the gate is an SLO: under `slo`, write e.g. `sustainable_rate >= 20k/s`",
    sustainable_rate: "the gate is an SLO: under `slo`, write e.g. `sustainable_rate >= 20k/s`",
  },
};

const SERVICE: SectionSpec = {
  path: "service",
  description:
    "The service under test: `tailgate run` and `tailgate search` start it before the load, wait until it is ready and stop every process it left afterwards (`--start`, `--ready` and `--ready-timeout` override it; `--no-start` skips it).",
  required: ["start"],
  keys: [
    {
      key: "start",
      kind: "text",
      minLength: 1,
      description:
        "The command that starts it, run by `sh -c` in `cwd` (a relative program path is found from there).",
      example: "start: npm start",
      examples: ["json-server db.json -p 3917"],
    },
    {
      key: "ready",
      kind: "url_or_port",
      description:
        "Ready once this URL answers a GET with 2xx, or, a port, once 127.0.0.1:PORT accepts a connection (default: once the target's port accepts one).",
      examples: ["http://127.0.0.1:3917/health"],
    },
    {
      key: "timeout",
      kind: "duration",
      positive: true,
      default: "60s",
      description: "How long it may take to be ready.",
    },
    {
      key: "env",
      kind: "env",
      description:
        "Environment variables set for it, beside tailgate's own; `${env.NAME}` reads one of tailgate's (a secret, never printed).",
    },
    {
      key: "cwd",
      kind: "text",
      minLength: 1,
      description: "The folder it runs in, relative to the plan's folder (default: the plan's).",
    },
  ],
  synonyms: {
    command: "start",
    cmd: "start",
    run: "start",
    exec: "start",
    health: "ready",
    healthcheck: "ready",
    health_check: "ready",
    ready_url: "ready",
    wait_for: "ready",
    port: "ready",
    ready_timeout: "timeout",
    startup_timeout: "timeout",
    wait: "timeout",
    environment: "env",
    vars: "env",
    workdir: "cwd",
    working_dir: "cwd",
    working_directory: "cwd",
    dir: "cwd",
    directory: "cwd",
    folder: "cwd",
  },
};

const BODY: SectionSpec = {
  path: "requests[].body",
  keys: [
    { key: "text", kind: "text" },
    { key: "json", kind: "json" },
    { key: "file", kind: "text" },
    {
      key: "template",
      kind: "boolean",
      default: false,
      description:
        "With `file`: read the file's `{{…}}` templates (a .json file is a JSON body; other files are text).",
    },
  ],
};

const EXPORTER: SectionSpec = {
  path: "export",
  description: "One receiver of the run's metrics: Prometheus remote write or OTLP over HTTP.",
  variants: [["prometheus"], ["otlp"]],
  missing: {
    message: "an exporter needs `prometheus` or `otlp`",
    hint: "e.g. `- { prometheus: http://127.0.0.1:9090/api/v1/write }`",
  },
  keys: [
    {
      key: "prometheus",
      kind: "text",
      minLength: 1,
      description:
        "A Prometheus remote-write URL (`http://127.0.0.1:9090/api/v1/write`); `${env.NAME}` reads a secret, never printed.",
      examples: ["http://127.0.0.1:9090/api/v1/write"],
    },
    {
      key: "otlp",
      kind: "text",
      minLength: 1,
      description:
        "An OTLP/HTTP base URL (`http://127.0.0.1:4318`): metrics go to its `/v1/metrics`; `${env.NAME}` reads a secret, never printed.",
      examples: ["http://127.0.0.1:4318"],
    },
    {
      key: "headers",
      kind: "headers",
      description:
        "Headers sent with every export request (`Authorization: Bearer ${env.TOKEN}`); `${env.NAME}` values are secrets, never printed.",
    },
  ],
  synonyms: {
    remote_write: "prometheus",
    prom: "prometheus",
    otel: "otlp",
    opentelemetry: "otlp",
  },
};

const GRPC: SectionSpec = {
  path: "grpc",
  required: ["proto"],
  missing: { message: "`grpc` needs `{key}`", hint: "add e.g. `{example}`" },
  keys: [
    {
      key: "proto",
      kind: "text_list",
      minItems: 1,
      description:
        "The `.proto` files that define the called services, relative to the plan (in its folder); their imports are found beside each file, then in `import_paths`; `google/protobuf/*` well-known types are built in.",
      example: "proto: [protos/helloworld.proto]",
    },
    {
      key: "import_paths",
      kind: "text_list",
      description:
        'Folders, relative to the plan, where `import "…"` of the `.proto` files are found (after each file\'s own folder).',
    },
    {
      key: "deadline",
      kind: "duration",
      positive: true,
      description:
        "Every call's deadline unless a request sets its own, sent as `grpc-timeout` (default: none).",
    },
  ],
  synonyms: {
    protos: "proto",
    proto_files: "proto",
    protoset: "proto",
    import_path: "import_paths",
    timeout: "deadline",
  },
};

const DATA_SOURCE: SectionSpec = {
  path: "data.*",
  required: ["file"],
  missing: {
    message: "data source `{name}` has no `file`",
    hint: "add e.g. `file: data/{name}.csv`",
  },
  keys: [
    {
      key: "file",
      kind: "text",
      description: "A CSV file with a header row, or a .jsonl file; relative to the plan.",
      examples: ["data/users.csv"],
    },
    {
      key: "order",
      kind: "choice",
      values: ["sequence", "random", "shuffle"],
      default: "sequence",
      description:
        "sequence: rows in file order, each once per pass; shuffle: a seeded permutation per pass; random: independent seeded draws.",
    },
    {
      key: "exhausted",
      kind: "choice",
      values: ["wrap", "error"],
      default: "wrap",
      description:
        "When the schedule needs more rows than the file has: wrap to the first again, or refuse the plan before anything is sent.",
    },
  ],
  synonyms: { path: "file", source: "file", mode: "order", strategy: "order", on_end: "exhausted" },
};

/** Every section, by name. */
export const PLAN_LANGUAGE = {
  plan: PLAN,
  defaults: DEFAULTS,
  request: REQUEST,
  step: STEP,
  journey: JOURNEY,
  journey_step: JOURNEY_STEP,
  load: LOAD,
  stage: STAGE,
  regression: REGRESSION,
  search: SEARCH,
  trace: TRACE,
  service: SERVICE,
  body: BODY,
  data_source: DATA_SOURCE,
  grpc: GRPC,
  exporter: EXPORTER,
} as const;

/** A section's name in {@linkcode PLAN_LANGUAGE}. */
export type SectionName = keyof typeof PLAN_LANGUAGE;

/**
 * The keys of a section, in the order the language lists them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keysOf } from "./plan_language.ts";
 * assert.deepEqual(keysOf("stage"), ["name", "rate", "duration", "ramp", "over", "warmup"]);
 * ```
 */
export function keysOf(section: SectionName): string[] {
  return PLAN_LANGUAGE[section].keys.map((k) => k.key);
}

/**
 * One key's description; throws on a key the language does not have (a programming error).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keySpec } from "./plan_language.ts";
 * assert.equal(keySpec("load", "connections").default, 50);
 * ```
 */
export function keySpec(section: SectionName, key: string): KeySpec {
  const spec = PLAN_LANGUAGE[section].keys.find((k) => k.key === key);
  if (spec === undefined) throw new Error(`the plan language has no ${section}.${key}`);
  return spec;
}
