/**
 * The plan model: what a validated plan file means ({@linkcode ResolvedPlan}), and the located
 * problems ({@linkcode PlanIssue}) found on the way.
 *
 * @module
 */
import type { Problem } from "../model/mod.ts";
import type { SearchSettingsRecord } from "../model/mod.ts";

/** A problem found in a plan: where it is, what is wrong, and how to fix it. */
export interface PlanIssue extends Problem {
  /**
   * `error`: the plan cannot run; `warning`: worth fixing, but the plan is still usable; `note`:
   * what tailgate will do of its own accord (a default it skips), nothing to fix.
   */
  severity: "error" | "warning" | "note";
  /** The plan file as the user named it. */
  file: string;
  /** YAML path of the offending node, e.g. `load.stages[1].rate`; empty for the whole file. */
  path: string;
  /** 1-based line and column. */
  line: number;
  /** 1-based column of the offending part. */
  col: number;
  /** How many characters the caret underlines (at least 1). */
  length: number;
}

/** An HTTP header; a value read from `${env.NAME}` is secret and is never printed or stored. */
export interface PlanHeader {
  /** Header field name (`content-type` is added for a JSON body that sets none). */
  name: string;
  /** The value sent on the wire, environment variables substituted. */
  value: string;
  /** The value as written in the plan (`Bearer ${env.TOKEN}`): safe to print and store. */
  template: string;
  /** True when the value reads `${env.NAME}`: sent on the wire, never printed or stored. */
  secret: boolean;
  /** Set when the value draws `{{…}}` values per request; `value` is then the template. */
  parts?: TemplatePart[];
}

/** A request body: text, JSON (serialised once at load), or a file read when the run starts. */
export type PlanBody =
  | { kind: "text"; text: string }
  | { kind: "json"; text: string }
  | { kind: "file"; path: string; sizeBytes: number }
  /** A gRPC call's request message (`message:`), as its JSON text; framed protobuf on the wire. */
  | { kind: "grpc"; text: string };

/** Which response statuses count as success: explicit codes and whole classes (`2xx`). */
export interface StatusExpectation {
  /** Exact status codes that count as success (`[200, 201]`). */
  codes: number[];
  /** Status classes that count as success, by first digit (`2` for `2xx`). */
  classes: number[];
}

/** One request of the plan's mix. */
export interface PlanRequest {
  /** The label results are grouped by (`GET /orders` unless named). */
  label: string;
  /** HTTP method in capitals (`GET` unless set). */
  method: string;
  /** Absolute URL. */
  url: string;
  /**
   * Headers sent: `defaults.headers`, each replaced by a header of the request's own with the same
   * name (any case).
   */
  headers: PlanHeader[];
  /** The body to send, when the request has one. */
  body?: PlanBody;
  /** Relative weight in the mix (> 0). */
  weight: number;
  /** How long a request may take before it fails as a `timeout`, in milliseconds. */
  timeoutMs: number;
  /** Statuses that count as success (`2xx` unless set). */
  expect: StatusExpectation;
  /**
   * Set when the request is rendered rather than sent as one fixed string: its path, a header or
   * its body draws `{{…}}` values, or its path or body reads `${env.NAME}`. `url`, `headers` and
   * `body` above are then the printable forms, as written.
   */
  template?: RequestTemplate;
  /**
   * What the response must show beyond its status (`check:`), in the plan's order; absent when
   * none. A plan with checks is not yet run (runner/plan/requests/journey_refusal.ts).
   */
  checks?: PlanCheck[];
  /**
   * The gRPC call this request makes (`call:`), resolved against the plan's `.proto` files; absent
   * for HTTP. `method` is then `POST`, `url` the call's path on the target (http(s)), `headers`
   * the call's metadata beside `content-type: application/grpc` and `te: trailers`, `body` its
   * message (`kind: "grpc"`), and `expect` its accepted gRPC statuses (runner/model/grpc_status.ts).
   */
  grpc?: PlanGrpcCall;
}

/** A gRPC call of a request (`call: helloworld.Greeter/SayHello`). */
export interface PlanGrpcCall {
  /** The service's full name, without a leading dot (`helloworld.Greeter`). */
  service: string;
  /** The method's name (`SayHello`). */
  method: string;
  /** The call's `:path` (`/helloworld.Greeter/SayHello`). */
  path: string;
  /** The request message's full type name (`helloworld.HelloRequest`). */
  requestType: string;
  /** The response message's full type name (`helloworld.HelloReply`). */
  responseType: string;
  /** True for a server-streaming method; unary otherwise (client and bidi streams are refused). */
  serverStreaming: boolean;
  /** The call's deadline (`deadline:`, sent as `grpc-timeout`), when it has one. */
  deadlineMs?: number;
}

/** The plan's `.proto` files, parsed: plain data, so engine workers can be given it. */
export interface PlanGrpcSchema {
  /** The `.proto` files as written in the plan (`grpc.proto`), for reports. */
  files: string[];
  /** The parsed schema in protobufjs's JSON form: opaque outside runner/plan/grpc/. */
  descriptor: unknown;
  /** True for a `grpcs://` target (TLS, ALPN h2); false for `grpc://` (h2c). */
  tls: boolean;
}

/**
 * One check of a response (`check:`), named by its own text (`/state == open`) for reports and
 * `check_rate("…")`. Regular expressions are kept as their source, compiled when evaluated.
 */
export type PlanCheck =
  & { text: string; line: number }
  & (
    | { kind: "status"; expect: StatusExpectation }
    | { kind: "header"; name: string; pattern: string }
    | { kind: "json"; pointer: string; test: JsonTest }
    | { kind: "body_contains"; contains: string }
    | { kind: "body_matches"; pattern: string }
    | { kind: "max_bytes"; bytes: number }
  );

/** What a JSON check asks of the value at its pointer. */
export type JsonTest =
  /** Equal to this JSON value (its JSON text: `"open"`, `3`, `true`, `null`). */
  | { op: "eq"; json: string }
  | { op: "exists" }
  | { op: "absent" }
  | { op: "lt"; value: number }
  | { op: "gt"; value: number }
  /** The value's text (a string as it is, else its JSON) matches this regular expression. */
  | { op: "matches"; pattern: string };

/** The pause before a journey step: fixed (`min == max`) or drawn uniformly in [min, max). */
export interface PlanThink {
  /** The shortest pause (ms). */
  minMs: number;
  /** The longest pause (ms); equal to `minMs` for a fixed think time. */
  maxMs: number;
}

/** One step of a journey: a request with its captures, checks and think time. */
export interface PlanJourneyStep extends RequestBasics {
  /** Values taken from its response for `{{name}}` in later steps of the same journey. */
  captures: PlanCapture[];
  /** The pause between the previous step's completion and this step's due time; absent: none. */
  think?: PlanThink;
  /** 1-based line of the step in the plan file. */
  line: number;
}

/** A journey of the request mix: ordered steps run as one unit per arrival. */
export interface PlanJourney {
  /** Its name (`order`): journey SLOs bind to it; its steps are labelled `NAME / STEP`. */
  name: string;
  /** Relative weight in the mix, beside the single requests' (> 0). */
  weight: number;
  /** Its steps, in order (1 to 32). */
  steps: PlanJourneyStep[];
  /** 1-based line of the entry in the plan file. */
  line: number;
}

/** A request of `requests` or a setup or teardown step: everything but a request's weight. */
export type RequestBasics = Omit<PlanRequest, "weight">;

/** Where a setup or teardown step takes a value from: a JSON pointer into its body, or a header. */
export type CaptureSource =
  | { kind: "json"; pointer: string }
  | { kind: "header"; name: string }
  /** A regular expression on the body text with one group (journey steps only, for now). */
  | { kind: "regex"; pattern: string };

/** A value a step captures for `{{name}}` in later steps and in the measured requests. */
export interface PlanCapture {
  /** The name templates use (`token` in `{{token}}`). */
  name: string;
  /** Where the value comes from. */
  from: CaptureSource;
}

/**
 * A setup or teardown step: a request sent once, outside the schedule and the histograms, with
 * what it captures. Its templates read `${env.NAME}` and earlier steps' captures, never drawn values.
 */
export interface PlanStep extends RequestBasics {
  /** What the step captures from its response, in the plan's order. */
  captures: PlanCapture[];
  /** 1-based line of the step in the plan file. */
  line: number;
}

/** A value a template draws afresh for each request: a var, or a column of a data source's row. */
export type TemplateRef =
  | { kind: "var"; name: string }
  | { kind: "column"; source: string; column: string };

/**
 * How a drawn value is written where it lands: `raw` (headers, text bodies), `percent` (path and
 * query), `json_string` (inside a JSON string), `json_value` (a JSON string that is exactly one
 * template: numbers stay numbers, a JSONL field keeps its JSON type).
 */
export type TemplateEncoding = "raw" | "percent" | "json_string" | "json_value";

/**
 * One piece of a template. A `secret` is an `${env.NAME}` value: sent, never printed or stored. A
 * `capture` is a value a setup step takes from its response (`{{token}}`): secret too, bound into
 * a `secret` part once setup has run, so the engine never sees one.
 */
export type TemplatePart =
  | { kind: "text"; text: string }
  | { kind: "secret"; value: string; template: string }
  | { kind: "ref"; ref: TemplateRef; encoding: TemplateEncoding }
  | { kind: "capture"; name: string; encoding: TemplateEncoding };

/** A request as pieces: its request-target (path and query), headers and body. */
export interface RequestTemplate {
  /** The request-target (`/users/{{users.id}}?region={{region}}`), literal text URL-normalised. */
  target: TemplatePart[];
  /** Every header sent, the plan's defaults applied. */
  headers: Array<{ name: string; parts: TemplatePart[] }>;
  /** The body, when the request has one; a `file` body that is not a template is not here. */
  body?: TemplatePart[];
}

/** How a data source's rows are taken. */
export type DataOrder = "sequence" | "random" | "shuffle";

/** A data file of the plan's `data` section, read and checked at validation. */
export interface PlanDataSource {
  /** The name templates use (`users` in `{{users.id}}`). */
  name: string;
  /** The file as written in the plan (relative to it). */
  file: string;
  /** The file's resolved path. */
  path: string;
  /** How the file is read: CSV with a header row, or one JSON object per line. */
  format: "csv" | "jsonl";
  /** How its rows are taken. */
  order: DataOrder;
  /** What happens when the schedule needs more rows than the file has: wrap, or a plan error. */
  exhausted: "wrap" | "error";
  /** Column names, in the file's order. */
  columns: string[];
  /** Data rows (the header not counted). */
  rows: number;
  /** Each column's values (text form), in one string per column. */
  text: ColumnValues[];
  /** JSONL only: each column's values as JSON text, so a JSON body keeps its type. */
  json?: ColumnValues[];
  /** Line where the source is declared. */
  line: number;
  /** Column of the source's name. */
  col: number;
}

/**
 * One column's values as one string: row r is `text.slice(starts[r], starts[r + 1])`. A hundred
 * thousand rows are two objects, not a hundred thousand: cheap to send to an engine worker, and
 * nothing for its garbage collector to walk during a run.
 */
export interface ColumnValues {
  /** Every row's value, one after another. */
  text: string;
  /** Where each row starts in `text`, and (last) where the final row ends: rows + 1 entries. */
  starts: Uint32Array;
}

/** What a var draws. */
export type PlanVarSpec =
  | { kind: "uuid" }
  | { kind: "counter" }
  | { kind: "int"; min: number; max: number }
  | { kind: "choice"; values: Array<string | number | boolean> };

/** A var of the plan's `vars` section. */
export interface PlanVar {
  /** The name templates use (`qty` in `{{qty}}`). */
  name: string;
  /** What it draws. */
  spec: PlanVarSpec;
  /** The spec in one line, as reports show it (`int [1, 20]`). */
  text: string;
  /** Line where the var is declared. */
  line: number;
}

/** A stage at a constant rate. */
export interface ConstantStage {
  /** A `rate` stage of the plan. */
  kind: "constant";
  /** Position in `load.stages` (0-based). */
  index: number;
  /** Shown in reports: the plan's `name`, or e.g. `20k/s for 60s`. */
  name: string;
  /** The intended rate, requests per second. */
  ratePerSec: number;
  /** Length of the stage, in milliseconds. */
  durationMs: number;
  /** True for a warmup stage: it runs and is reported, but no gate judges it. */
  warmup: boolean;
  /** 1-based line of the stage in the plan file. */
  line: number;
}

/** A stage whose rate moves linearly from `fromPerSec` to `toPerSec`. */
export interface RampStage {
  /** A `ramp` stage of the plan. */
  kind: "ramp";
  /** Position in `load.stages` (0-based). */
  index: number;
  /** Shown in reports: the plan's `name`, or e.g. `1k/s -> 30k/s over 2m`. */
  name: string;
  /** Intended rate at the stage's start, requests per second. */
  fromPerSec: number;
  /** Intended rate at the stage's end, requests per second. */
  toPerSec: number;
  /** Length of the ramp (`over`), in milliseconds. */
  durationMs: number;
  /** True for a warmup stage: it runs and is reported, but no gate judges it. */
  warmup: boolean;
  /** 1-based line of the stage in the plan file. */
  line: number;
}

/** One stage of the load profile. */
export type PlanStage = ConstantStage | RampStage;

/** What an SLO's `at` rate binds to: a stage's kind, rate and warmup (known of a broken stage too). */
export type StageBinding =
  | Pick<ConstantStage, "kind" | "ratePerSec" | "warmup">
  | Pick<RampStage, "kind" | "warmup">;

/** How requests arrive: evenly spaced, or exponential gaps from a seeded generator. */
export type Arrival = "constant" | "poisson";

/** The load profile. */
export interface PlanLoad {
  /** Connections opened at the start (default 50). */
  connections: number;
  /** Connections may grow up to this when requests queue for a free one (default `connections`). */
  maxConnections: number;
  /** How sends are spaced (default `constant`). */
  arrival: Arrival;
  /**
   * Seed of the poisson generator and of every drawn value: the same seed sends the same requests.
   * When the plan fixes none (`seedPerRun`), this is 1 (traffic/plan_seed.ts): what
   * `check` counts with and the layers below the front door use as given, and `measureRun()` replaces
   * it with a fresh seed for each run.
   */
  seed: number;
  /**
   * True when the plan fixes no `load.seed`: each run draws its own (`measureRun()`; the result
   * records it as `load.seed`), so two runs send different uuids and values.
   */
  seedPerRun?: true;
  /** Worker count, or "auto" (one per core on larger machines). */
  workers: number | "auto";
  /** The rate profile, run in order (at least one). */
  stages: PlanStage[];
  /**
   * `load.http`: the HTTP version sent; absent means 1.1. `2` is h2 by ALPN over `https://` (no
   * silent fallback) and h2c with prior knowledge over `http://`.
   */
  http?: "1.1" | "2";
  /**
   * `load.max_streams` (HTTP/2 only): concurrent streams per connection; absent means what the
   * server's SETTINGS allow, capped at 100.
   */
  maxStreams?: number;
  /**
   * `load.window_mib` (HTTP/2 only): the flow-control window offered each stream and the
   * connection, in MiB; absent means 16.
   */
  windowMib?: number;
}

/** What an SLO measures. Percentiles are in percent (99.9), not fractions. */
export type SloMetric =
  | { kind: "percentile"; percentile: number }
  | { kind: "max" }
  | { kind: "mean" }
  | { kind: "error_rate" }
  | { kind: "throughput" }
  /** The robust slope of the per-interval p50 or p99 over a constant stage (`trend(p99)`). */
  | { kind: "trend"; percentile: 50 | 99 }
  /** How many stalls the time-domain analysis lists in the bound stages. */
  | { kind: "stalls" }
  /** The capacity search's finding; judged by `tailgate search`, not by a run. */
  | { kind: "sustainable_rate" }
  /** The failed share of one check's evaluations (`check_rate("/state == open")`). */
  | { kind: "check_rate"; check: string };

/** A comparison operator of the SLO grammar. */
export type SloOperator = "<" | "<=" | ">" | ">=";

/**
 * One SLO line. `bound` is in microseconds for latency metrics, a fraction (0.001) for
 * `error_rate`, requests per second for `throughput` and `sustainable_rate`, microseconds per
 * minute for `trend(...)` and a count for `stalls`.
 */
export interface Slo {
  /** The text as written in the plan. */
  text: string;
  /** What is measured. */
  metric: SloMetric;
  /** How the measured value must compare with `bound`. */
  operator: SloOperator;
  /**
   * The limit: microseconds for latency, a fraction for error_rate, per second for throughput and
   * sustainable_rate, µs per minute for a trend, a count for stalls.
   */
  bound: number;
  /** Bound to the constant stages at this rate; absent means every non-warmup stage. */
  atRatePerSec?: number;
  /** Scoped to one request label; absent means all requests. */
  label?: string;
  /**
   * Which times a latency SLO reads: `journey` (`journey.p99`: a journey's first intended send to
   * its last step's end, think excluded; `label` is then a journey's name) or `ttfb`
   * (`ttfb.p99`: time to the first response byte); absent means response time.
   */
  series?: "journey" | "ttfb";
  /**
   * `over 10s`: judged in every window of this length (ms, whole seconds) within the bound
   * stages, windows stepping by 1 s; absent means over the bound stages as a whole.
   */
  windowMs?: number;
  /** Line of the SLO in the plan file, for CI annotations. */
  line: number;
}

/** A validated plan, ready to schedule. */
export interface ResolvedPlan {
  /** Name of the plan; results and baselines are filed under it. */
  name: string;
  /** Free text shown in reports, when the plan has one. */
  description?: string;
  /** The plan file as the user named it. */
  file: string;
  /** Base URL of the target, when the plan names one. */
  target?: string;
  /** The request mix's single requests (with `journeys`, at least one entry). */
  requests: PlanRequest[];
  /** The journeys of the request mix, when it has any (not yet run: requests/journey_refusal.ts). */
  journeys?: PlanJourney[];
  /** Requests sent once before the first stage (`setup`), when the plan has any. */
  setup?: PlanStep[];
  /** Requests sent once after the last stage (`teardown`), when the plan has any. */
  teardown?: PlanStep[];
  /** The load profile. */
  load: PlanLoad;
  /** The SLOs the run is judged by, in the plan's order. */
  slos: Slo[];
  /**
   * `allow_errors: true`: no implicit `error_rate <= 1%` gate for a plan without an `error_rate`
   * SLO (runner/gates/slo/implicit_error_gate.ts); absent means false.
   */
  allowErrors?: boolean;
  /** The plan's data files (`data`), when it has any. */
  data?: PlanDataSource[];
  /** The plan's per-request variables (`vars`), when it has any. */
  vars?: PlanVar[];
  /** Regression gate floors by metric (fractions); absent means the defaults (docs/gates.md). */
  regression?: Record<string, number>;
  /** The capacity search's settings (`tailgate search`), when the plan has a `search` section. */
  search?: PlanSearch;
  /** `fail_fast: true`: `run` (and `ab`'s head runs) stop once an SLO's failure is certain. */
  failFast?: boolean;
  /**
   * The service under test (`service`), when the plan says how to start it: `run` and `search`
   * start it before the load and stop it after (`--start` replaces it). Not part of the load: no
   * result stores it and no fingerprint reads it.
   */
  service?: PlanService;
  /**
   * Every value the plan read from the environment (`${env.NAME}`): sent, never printed or
   * stored; a message that could hold one (a setup step's response) has them blotted out.
   */
  secretValues?: string[];
  /**
   * The command-line overrides the plan was run with (`--rate-scale 0.25`), when any: its numbers
   * compare only with runs given the same ones (runner/plan/overrides/plan_overrides.ts).
   */
  overrides?: string[];
  /** The plan's gRPC schema (`grpc:`), when its requests are gRPC calls. */
  grpc?: PlanGrpcSchema;
  /**
   * Where the run's metrics go once it ends (`export`), when the plan says; `--export` adds to
   * them. Not part of the load: no result stores it and no fingerprint reads it.
   */
  export?: ExportTarget[];
  /**
   * `trace` (or `--trace`): every request carries a W3C `traceparent` (and this `tracestate`,
   * when set); absent: none.
   */
  trace?: PlanTrace;
}

/** What kind of receiver an exporter sends to. */
export type ExportKind = "prometheus" | "otlp";

/**
 * A receiver of the run's metrics (the plan's `export`, `--export KIND=URL`): Prometheus remote
 * write, or an OTLP/HTTP base URL.
 */
export interface ExportTarget {
  /** Prometheus remote write, or OTLP over HTTP. */
  kind: ExportKind;
  /** The URL sent to, environment variables substituted: never printed. */
  url: string;
  /** The URL as it may be printed: `${env.NAME}` as written, a password or query value `***`. */
  urlText: string;
  /** Headers sent with every export request (secret ones never printed). */
  headers: PlanHeader[];
  /** 1-based line of the exporter in the plan file; absent for `--export`. */
  line?: number;
}

/** The plan's `trace`, when on: the `tracestate` sent beside each `traceparent`, if any. */
export interface PlanTrace {
  /** The `tracestate` header sent beside each `traceparent` (W3C `key=value` members), if any. */
  tracestate?: string;
}

/** The plan's `search` section, resolved (runner/search/search_strategy.ts). */
export interface PlanSearch extends SearchSettingsRecord {
  /** 1-based line of the section in the plan file. */
  line: number;
}

/** Where a started service answers once it is ready: a URL answering 2xx, or a loopback port. */
export type ServiceReady =
  /** Ready once a GET of this URL answers 2xx. */
  | { url: string }
  /** Ready once 127.0.0.1:`port` accepts a TCP connection. */
  | { port: number };

/** The plan's `service` section, resolved: how to start the service under test. */
export interface PlanService {
  /** The command that starts it, as written (run by `sh -c` in `cwd`). */
  command: string;
  /** Where it answers once ready; absent: once the target's port accepts a connection. */
  ready?: ServiceReady;
  /** How long it may take to be ready (ms; `timeout`, default 60 s). */
  readyTimeoutMs: number;
  /**
   * Variables set in its environment, beside tailgate's own (values read from `${env.NAME}`
   * substituted: each is among the plan's `secretValues`).
   */
  env: Record<string, string>;
  /** The folder it runs in: `cwd` joined to the plan's folder (default: the plan's folder). */
  cwd: string;
  /** 1-based line of the section in the plan file. */
  line: number;
}
