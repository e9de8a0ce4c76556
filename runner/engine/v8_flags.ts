/**
 * The V8 flags the engine needs, and a check that the process has them. At 20k requests/s the
 * engine and Deno's op machinery allocate about 2 KB per request; with V8's default young
 * generation (a 1 MB semi-space growing to 8 MB) that is ~8 scavenges a second, and the objects
 * that happen to be in flight at two of them are promoted, so the old generation fills and an
 * incremental mark-compact stalls the engine thread for 10-15 ms every few seconds. A 16 MB
 * semi-space makes scavenges rare enough that almost nothing is promoted
 * (docs/decisions/direct_reads_semi_space.md). Its size is fixed: V8 doubles a semi-space once
 * the bytes that survived scavenges since it last grew exceed its capacity, which the objects in
 * flight at each scavenge add up to after about four minutes at 20k/s; with a 32 MB maximum that
 * stepped the process's RSS up by ~30 MB mid-run (issue 31's RSS target; docs/engine.md). V8
 * reads these flags when the heap is created, so they must be on the command line (`deno run
 * --v8-flags=…`, `deno compile --v8-flags=…`); the `tailgate` and `demo` tasks, the GitHub Action
 * and the examples pass them.
 *
 * @module
 */
import v8 from "node:v8";
import vm from "node:vm";

/**
 * The flags, as `--v8-flags=` takes them.
 */
export const ENGINE_V8_FLAGS = "--min-semi-space-size=16,--max-semi-space-size=16";

/** The young generation's capacity (MB) below which a run warns (V8's default grows to 8 MB). */
export const YOUNG_GENERATION_MIN_MB = 12;

/**
 * This isolate's young-generation capacity now, in MB (used + available of the new space).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { youngGenerationMb } from "./v8_flags.ts";
 * assert.ok(youngGenerationMb() > 0); // ~1 without the flags, ~16 with them
 * ```
 */
export function youngGenerationMb(): number {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
  if (space === undefined) return NaN;
  return (space.space_used_size + space.space_available_size) / (1024 * 1024);
}

/**
 * The warning a result carries when the engine ran without its flags, else undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { youngGenerationWarning } from "./v8_flags.ts";
 * youngGenerationWarning(1.0); // "tailgate ran with V8's default young generation (1 MB) …"
 * assert.equal(youngGenerationWarning(16.7), undefined);
 * ```
 */
export function youngGenerationWarning(mb: number): string | undefined {
  if (!(mb < YOUNG_GENERATION_MIN_MB)) return undefined;
  return `tailgate ran with V8's default young generation (${mb.toFixed(1)} MB), so at high ` +
    "rates its garbage collector stalls the engine for 10-15 ms every few seconds and the tail " +
    `percentiles include them: run it as \`deno run --v8-flags=${ENGINE_V8_FLAGS} …\` ` +
    "(the `deno task tailgate` task and the GitHub Action do)";
}

/**
 * Runs a full garbage collection on the calling thread now, where V8 lets it be asked for (node's
 * `--expose-gc` idiom); false where it cannot. The engine calls it once its connections are open
 * and before its schedule starts: its young generation then holds only what the run allocates,
 * and the run's first scavenge copies that instead of everything loading left behind (measured:
 * 7 ms, in the middle of a run at 1k/s).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { collectGarbage } from "./v8_flags.ts";
 * assert.equal(collectGarbage(), true);
 * assert.equal(collectGarbage(), true); // the same `gc`, asked for once
 * ```
 */
export function collectGarbage(): boolean {
  try {
    if (exposedGc === undefined) {
      v8.setFlagsFromString("--expose-gc");
      const gc = vm.runInNewContext("gc") as unknown;
      exposedGc = typeof gc === "function" ? gc as () => void : null;
    }
    exposedGc?.();
    return exposedGc !== null;
  } catch {
    return false;
  }
}

/** This thread's `gc`, once asked for: null where V8 would not give it. */
let exposedGc: (() => void) | null | undefined;

/**
 * How often the main thread collects its garbage while engine Workers run (ms). The flags above
 * are the process's, so every isolate gets a 16 MB semi-space, not only the engine's; the main
 * thread, which then only relays progress and signals, allocates about 11 KB a second at 20k/s,
 * walks through its semi-space in some 25 minutes, and every page it touches stays in RSS until
 * its next scavenge: 0.65 MB more a minute. A full collection there takes about 20 ms, off the
 * measured path. Never on the engine's own thread, nor the timing and probe threads, whose pauses
 * would be measured.
 */
export const MAIN_THREAD_GC_PERIOD_MS = 60_000;
