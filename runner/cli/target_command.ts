/**
 * `tailgate target --mode M ...`: parses the flags into {@linkcode TargetOptions} and runs the
 * built-in known-truth target until `signal` aborts (cli.ts aborts it on SIGINT and SIGTERM).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { didYouMean } from "../plan/mod.ts";
import { parseDurationMs, parsePercentFraction } from "../plan/mod.ts";
import { err, ok, problems, type Result } from "../model/mod.ts";
import {
  describeTargetConfig,
  FAULT_KINDS,
  type FaultKind,
  resolveTargetOptions,
  startTarget,
  TARGET_MODES,
  type TargetMode,
  type TargetOptions,
} from "../target/mod.ts";

/**
 * Help text of `tailgate target`.
 */
export const TARGET_HELP = `Usage: tailgate target [--mode M] [options]

Serves HTTP with known latency, to calibrate a load-test pipeline against the truth.
Listens on 127.0.0.1:8080 until Ctrl-C. Stall periods and trend growth count from the start.

Modes:
  hello     200 "hello\\n" at once (default)
  fixed     every response after --delay (default 10ms)
  stall     the whole server frozen for --stall (2s) at the end of every --period (10s):
            a request arriving then waits for the stall to end, as if a lock were held
  bimodal   a --frac (0.1) of responses take --slow (100ms), the rest --delay (0ms)
  trend     latency --delay + --growth (1ms) per second since start
  first-n   the first --n (100) responses take --delay, later ones --slow
  faults    a --fault-frac (0.1) of responses fail, taking turns among --faults:
            500 (status 500), reset (TCP RST), garbage (not HTTP), close (no response)
  capacity  --servers (4) requests served at a time, each taking --delay (10ms), the rest
            waiting in one FIFO queue: capacity exactly servers / delay (400/s by default);
            above it the queue and every latency grow without bound

Options:
  --port N          TCP port (default 8080; 0 picks a free one)
  --host ADDR       address to bind (default 127.0.0.1)
  --listen-any      allow a non-loopback --host (the target then answers the network)
  --delay D         base latency, e.g. 250us, 20ms, 1s
  --stall D         stall: frozen time per period        --period D  stall: period length
  --frac F          bimodal: slow fraction, 0.1 or 10%   --slow D    bimodal, first-n: slow latency
  --growth D        trend: added latency per second, e.g. 1ms (or 1ms/s)
  --n N             first-n: number of fast responses
  --fault-frac F    faults: failing fraction             --faults K,K  faults: kinds to use
  --seed N          bimodal, faults: pick by a seeded hash instead of the exact even pattern
  --servers N       capacity: requests served at once (1..10000)

Each response carries x-tailgate-index and x-tailgate-delay-ms (the latency chosen).
Example: tailgate target --mode stall --stall 1s --period 5s --port 8991`;

const FLAGS = {
  mode: { type: "string" },
  port: { type: "string" },
  host: { type: "string" },
  "listen-any": { type: "boolean" },
  delay: { type: "string" },
  stall: { type: "string" },
  period: { type: "string" },
  frac: { type: "string" },
  slow: { type: "string" },
  growth: { type: "string" },
  n: { type: "string" },
  "fault-frac": { type: "string" },
  faults: { type: "string" },
  seed: { type: "string" },
  servers: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;
type Flag = keyof typeof FLAGS;

/** Flags that only some modes use; the others apply to every mode. */
const FLAG_MODES: Partial<Record<Flag, readonly TargetMode[]>> = {
  delay: ["fixed", "stall", "bimodal", "trend", "first-n", "faults", "capacity"],
  stall: ["stall"],
  period: ["stall"],
  frac: ["bimodal"],
  slow: ["bimodal", "first-n"],
  growth: ["trend"],
  n: ["first-n"],
  "fault-frac": ["faults"],
  faults: ["faults"],
  seed: ["bimodal", "faults"],
  servers: ["capacity"],
};

/** The outcome of {@linkcode parseTargetArgs}: the options, or every problem; `help` when asked. */
export type TargetArgs = Result<TargetOptions> & { help?: true };

/**
 * Parses `tailgate target` flags. Every problem is listed, each with the fix.
 */
export function parseTargetArgs(args: string[]): TargetArgs {
  const errors: string[] = [];
  const given = new Map<Flag, string | true>();
  const { tokens } = parseArgs({
    args,
    options: FLAGS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  let unknownAt = -1; // where an unknown --flag stood: the word after it is taken as its value
  for (const token of tokens) {
    if (token.kind === "positional" && token.index !== unknownAt + 1) {
      errors.push(`unexpected argument \`${token.value}\`: tailgate target takes only --flags`);
    }
    if (token.kind !== "option") continue;
    if (!Object.hasOwn(FLAGS, token.name)) {
      const guess = didYouMean(token.name, Object.keys(FLAGS));
      errors.push(`unknown flag ${token.rawName}${guess ? `: did you mean --${guess}?` : ""}`);
      if (token.value === undefined) unknownAt = token.index;
      continue;
    }
    const flag = token.name as Flag;
    const takesValue = FLAGS[flag].type === "string";
    if (takesValue && (token.value === undefined || token.value.startsWith("--"))) {
      errors.push(`${token.rawName} needs a value, e.g. ${token.rawName} ${example(flag)}`);
    } else if (!takesValue && token.value !== undefined) {
      errors.push(`${token.rawName} takes no value: write ${token.rawName} alone`);
    } else given.set(flag, token.value ?? true);
  }
  if (given.has("help")) return { ...ok({ mode: "hello" }), help: true };

  const text = (flag: Flag) => given.get(flag) as string | undefined;
  const modeText = text("mode") ?? "hello";
  const mode = TARGET_MODES.find((m) => m === modeText);
  if (mode === undefined) {
    const guess = didYouMean(modeText, TARGET_MODES);
    errors.push(
      `unknown --mode \`${modeText}\`: ${guess ? `did you mean ${guess}? ` : ""}` +
        `modes are ${TARGET_MODES.join(", ")}`,
    );
  }
  for (const [flag, modes] of Object.entries(FLAG_MODES) as [Flag, TargetMode[]][]) {
    if (mode !== undefined && given.has(flag) && !modes.includes(mode)) {
      errors.push(`--${flag} does not apply to --mode ${mode}: it is for ${modes.join(", ")}`);
    }
  }
  const read = <T>(flag: Flag, parse: (value: string) => T | string): T | undefined => {
    const value = text(flag);
    if (value === undefined) return undefined;
    const parsed = parse(value);
    if (typeof parsed !== "string") return parsed;
    errors.push(`--${flag} \`${value}\`: ${parsed}`);
    return undefined;
  };
  const options: TargetOptions = {
    mode: mode ?? "hello",
    hostname: text("host"),
    port: read("port", (v) => wholeNumber(v, 65_535)),
    listenAny: given.has("listen-any") || undefined,
    delayMs: read("delay", duration),
    stallMs: read("stall", duration),
    periodMs: read("period", duration),
    frac: read("frac", fraction),
    slowMs: read("slow", duration),
    growthMsPerSec: read("growth", (v) => duration(v.replace(/\s*\/\s*s$/, ""))),
    firstN: read("n", (v) => wholeNumber(v, Number.MAX_SAFE_INTEGER)),
    faultFrac: read("fault-frac", fraction),
    faultKinds: read("faults", faultKinds),
    seed: read("seed", (v) => wholeNumber(v, 2 ** 32 - 1)),
    servers: read("servers", (v) => wholeNumber(v, 10_000)),
  };
  const defined = Object.fromEntries(
    Object.entries(options).filter(([, v]) => v !== undefined),
  ) as TargetOptions;
  if (errors.length === 0) {
    const resolved = resolveTargetOptions(defined);
    if (!resolved.ok) return resolved;
  }
  return errors.length > 0 ? err(problems(errors)) : ok(defined);
}

/**
 * Runs the target until `signal` aborts, after printing one line such as
 * `tailgate target: stall listening on http://127.0.0.1:8080/ (stall 2s every 10s)`.
 * Rejects with TargetOptionsError for invalid options or a port in use.
 */
export async function runTargetCommand(
  options: TargetOptions,
  io: { stdout(line: string): void },
  signal?: AbortSignal,
): Promise<void> {
  const target = await startTarget(options);
  const stop = () => void target.shutdown();
  io.stdout(
    `tailgate target: ${target.config.mode} listening on ${target.url} ` +
      `(${describeTargetConfig(target.config)})`,
  );
  signal?.addEventListener("abort", stop, { once: true });
  if (signal?.aborted) stop();
  try {
    await target.finished;
  } finally {
    signal?.removeEventListener("abort", stop);
  }
}

function duration(value: string): number | string {
  const parsed = parseDurationMs(value);
  if (parsed.ok) return parsed.value;
  const { message, hint } = parsed.problems[0];
  return hint ? `${message}; ${hint}` : message;
}

function fraction(value: string): number | string {
  if (value.trim().endsWith("%")) {
    const parsed = parsePercentFraction(value);
    return parsed.ok ? parsed.value : parsed.problems[0].message;
  }
  const number = Number(value);
  return value.trim() !== "" && number >= 0 && number <= 1
    ? number
    : "not a fraction: write 0..1 or a percentage, e.g. 0.1 or 10%";
}

function wholeNumber(value: string, max: number): number | string {
  const number = Number(value);
  return /^\d+$/.test(value.trim()) && number <= max ? number : `not a whole number in 0..${max}`;
}

function faultKinds(value: string): FaultKind[] | string {
  const kinds = value.split(",").map((k) => k.trim());
  const wrong = kinds.find((k) => !(FAULT_KINDS as readonly string[]).includes(k));
  if (wrong === undefined) return kinds as FaultKind[];
  const guess = didYouMean(wrong, FAULT_KINDS);
  return `unknown fault kind \`${wrong}\`: ${guess ? `did you mean ${guess}? ` : ""}` +
    `kinds are ${FAULT_KINDS.join(", ")}, comma-separated`;
}

function example(flag: Flag): string {
  const examples: Partial<Record<Flag, string>> = {
    mode: "stall",
    port: "8080",
    host: "127.0.0.1",
    frac: "10%",
    "fault-frac": "10%",
    n: "100",
    seed: "1",
    faults: "500,reset",
    servers: "4",
    growth: "1ms",
  };
  return examples[flag] ?? "20ms";
}
