/**
 * What the built-in target serves: its modes, fault kinds, options with their defaults, and the
 * validation that turns {@linkcode TargetOptions} into a complete {@linkcode TargetConfig}.
 *
 * @module
 */
import { formatDurationMs } from "../plan/mod.ts";
import { isLoopbackHostname } from "./loopback.ts";
import { err, ok, problems, type Result } from "../model/mod.ts";

/**
 * The behaviours the target models, each with a latency that is known exactly in advance.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TARGET_MODES } from "./target_options.ts";
 * assert.equal(TARGET_MODES.includes("stall"), true);
 * ```
 */
export const TARGET_MODES = [
  "hello",
  "fixed",
  "stall",
  "bimodal",
  "trend",
  "first-n",
  "faults",
  "capacity",
] as const;

/** One of {@linkcode TARGET_MODES}. */
export type TargetMode = typeof TARGET_MODES[number];

/**
 * How a faulty response fails: `500` is a status, `reset` aborts the connection (TCP RST) without a
 * response, `garbage` writes bytes that are not HTTP, `close` closes cleanly (FIN) with no response.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FAULT_KINDS } from "./target_options.ts";
 * assert.equal(FAULT_KINDS.join(","), "500,reset,garbage,close");
 * ```
 */
export const FAULT_KINDS = ["500", "reset", "garbage", "close"] as const;

/** One of {@linkcode FAULT_KINDS}. */
export type FaultKind = typeof FAULT_KINDS[number];

/** The longest delay any request may be given (setTimeout's range ends near 24.8 days). */
export const MAX_DELAY_MS = 3_600_000;

/**
 * Options of {@linkcode startTarget}; every field but `mode` has a default in
 * {@linkcode TARGET_DEFAULTS}. Fields a mode does not use are ignored.
 */
export interface TargetOptions {
  /** What the target models; the one option without a default. */
  mode: TargetMode;
  /** Address to bind; a non-loopback one is refused unless `listenAny`. */
  hostname?: string;
  /** TCP port; 0 picks a free one. */
  port?: number;
  /** Allow a non-loopback `hostname` (the target then answers the network). */
  listenAny?: boolean;
  /** Base latency: fixed's delay, the fast side of bimodal and first-n, trend's start. */
  delayMs?: number;
  /** stall: how long the server is frozen at the end of every period. */
  stallMs?: number;
  /** stall: the period, counted from the server's start. */
  periodMs?: number;
  /** bimodal and first-n: the slow latency. */
  slowMs?: number;
  /** bimodal: the fraction of responses (0..1) that take `slowMs`. */
  frac?: number;
  /** trend: added latency per second since the server's start. */
  growthMsPerSec?: number;
  /** first-n: how many responses are fast before all later ones are slow. */
  firstN?: number;
  /**
   * capacity: how many requests are served at once (each takes `delayMs`; the rest wait in one
   * FIFO queue), so the server's capacity is exactly `servers / delayMs` requests per ms.
   */
  servers?: number;
  /** faults: the fraction of responses (0..1) that fail. */
  faultFrac?: number;
  /** faults: the kinds of failure, taken in turn (or by `seed`). */
  faultKinds?: readonly FaultKind[];
  /** bimodal and faults: choose by a seeded hash instead of the exact even pattern. */
  seed?: number;
  /** Clock in milliseconds; the timing of stall and trend is read from it. */
  now?: () => number;
}

/** {@linkcode TargetOptions} with every default applied and checked. */
export type TargetConfig = Required<Omit<TargetOptions, "seed" | "now">> & { seed?: number };

/**
 * Defaults of {@linkcode TargetOptions}. `fixed` and `capacity` without a delay use
 * {@linkcode FIXED_DEFAULT_DELAY_MS}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TARGET_DEFAULTS } from "./target_options.ts";
 * assert.equal(TARGET_DEFAULTS.periodMs, 10000);
 * ```
 */
export const TARGET_DEFAULTS: Omit<TargetConfig, "mode"> = {
  hostname: "127.0.0.1",
  port: 8080,
  listenAny: false,
  delayMs: 0,
  stallMs: 2_000,
  periodMs: 10_000,
  slowMs: 100,
  frac: 0.1,
  growthMsPerSec: 1,
  firstN: 100,
  servers: 4,
  faultFrac: 0.1,
  faultKinds: FAULT_KINDS,
};

/**
 * The delay of `fixed` mode when none is given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FIXED_DEFAULT_DELAY_MS } from "./target_options.ts";
 * assert.equal(FIXED_DEFAULT_DELAY_MS, 10);
 * ```
 */
export const FIXED_DEFAULT_DELAY_MS = 10;

/**
 * Thrown by {@linkcode startTarget} for invalid options; `errors` lists every problem.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TargetOptionsError } from "./target_options.ts";
 * const error = new TargetOptionsError(["port 70000 is not a port"]);
 * assert.equal(error.errors.length, 1);
 * ```
 */
export class TargetOptionsError extends Error {
  constructor(readonly errors: readonly string[]) {
    super(`invalid target options: ${errors.join("; ")}`);
    this.name = "TargetOptionsError";
  }
}

/**
 * Applies the defaults and checks every option, listing each problem with its fix.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveTargetOptions } from "./target_options.ts";
 * const r = resolveTargetOptions({ mode: "stall", stallMs: 3000, periodMs: 2000 });
 * assert.equal(r.ok, false); // "stall 3s must be above zero and shorter than period 2s ..."
 * ```
 */
export function resolveTargetOptions(
  options: TargetOptions,
): Result<TargetConfig> {
  const { now: _now, ...given } = options;
  const defaultDelayMs = options.mode === "fixed" || options.mode === "capacity"
    ? FIXED_DEFAULT_DELAY_MS
    : 0;
  const config: TargetConfig = {
    ...TARGET_DEFAULTS,
    delayMs: defaultDelayMs,
    ...withoutUndefined(given),
    mode: options.mode,
  };
  const errors: string[] = [];
  if (!(TARGET_MODES as readonly string[]).includes(config.mode)) {
    errors.push(`unknown mode \`${config.mode}\`: use one of ${TARGET_MODES.join(", ")}`);
  }
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65_535) {
    errors.push(`port ${config.port} is not a TCP port: use 0..65535 (0 picks a free one)`);
  }
  if (config.hostname === "") errors.push("hostname is empty: use e.g. 127.0.0.1");
  else if (!config.listenAny && !isLoopbackHostname(config.hostname)) {
    errors.push(
      `refusing to listen on non-loopback address \`${config.hostname}\`: a load target should ` +
        "not face the network; use 127.0.0.1, or allow it with listenAny (--listen-any)",
    );
  }
  for (const name of ["delayMs", "stallMs", "periodMs", "slowMs"] as const) {
    const ms = config[name];
    if (!(ms >= 0 && ms <= MAX_DELAY_MS)) {
      const shown = Number.isFinite(ms) ? formatDurationMs(ms) : String(ms);
      errors.push(`${name.slice(0, -2)} ${shown} is out of range: use 0ms to 1h`);
    }
  }
  if (config.mode === "stall" && !(config.stallMs > 0 && config.stallMs < config.periodMs)) {
    errors.push(
      `stall ${formatDurationMs(config.stallMs)} must be above zero and shorter than period ` +
        `${formatDurationMs(config.periodMs)}: e.g. stall 2s every period 10s`,
    );
  }
  for (const name of ["frac", "faultFrac"] as const) {
    if (!(config[name] >= 0 && config[name] <= 1)) {
      errors.push(`${name} ${config[name]} is not a fraction: use 0..1, e.g. 0.1 for 10%`);
    }
  }
  if (!(config.growthMsPerSec >= 0 && Number.isFinite(config.growthMsPerSec))) {
    errors.push(`growthMsPerSec ${config.growthMsPerSec} must be zero or more`);
  }
  if (!Number.isSafeInteger(config.servers) || config.servers < 1 || config.servers > 10_000) {
    errors.push(`servers ${config.servers} must be a whole number from 1 to 10000`);
  }
  if (config.mode === "capacity" && !(config.delayMs > 0)) {
    errors.push("capacity needs a service time above zero: e.g. delay 1ms with 4 servers (4k/s)");
  }
  if (!Number.isSafeInteger(config.firstN) || config.firstN < 0) {
    errors.push(`firstN ${config.firstN} must be a whole number, zero or more`);
  }
  const badKinds = config.faultKinds.filter((k) => !(FAULT_KINDS as readonly string[]).includes(k));
  if (config.faultKinds.length === 0 || badKinds.length > 0) {
    errors.push(
      `fault kinds \`${config.faultKinds.join(",")}\` are not valid: list some of ` +
        FAULT_KINDS.join(", "),
    );
  }
  if (config.seed !== undefined && !(Number.isInteger(config.seed) && config.seed >= 0)) {
    errors.push(`seed ${config.seed} must be a whole number, zero or more`);
  }
  return errors.length > 0 ? err(problems(errors)) : ok(config);
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
