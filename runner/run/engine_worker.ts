/**
 * The Web Worker that runs one share of a plan's schedule (see run_workers.ts). It receives the
 * plan and its shard, opens its connections and posts "ready"; the "start" message then gives
 * the common start time (once every worker is ready, so none starts behind its schedule). It posts
 * progress about once a second and its record when done. A "stop" message stops it like Ctrl-C.
 *
 * @module
 */
import type { ResolvedPlan } from "../plan/mod.ts";
import type { ShardSpec } from "../schedule/mod.ts";
import { type EngineRun, type Progress, runEngine } from "./run_engine.ts";
import type { SideLinks } from "./start_side_workers.ts";

/** Messages to the worker. */
export type ToEngineWorker =
  | {
    type: "run";
    plan: ResolvedPlan;
    shard: ShardSpec;
    caCerts?: string[];
    io: "native" | "deno";
    /** The encoder and hiccup probe the main thread started for this worker. */
    side: SideLinks;
  }
  | { type: "start"; startAtEpochMs: number }
  | { type: "stop" };

/** Messages from the worker. */
export type FromEngineWorker =
  | { type: "ready" }
  | { type: "notice"; text: string }
  | { type: "progress"; progress: Progress }
  | { type: "done"; run: Omit<EngineRun, "startedAt"> & { startedAt: string } }
  | { type: "failed"; message: string };

// deno-lint-ignore no-explicit-any
const scope = globalThis as any;
if (typeof scope.WorkerGlobalScope !== "undefined" && scope instanceof scope.WorkerGlobalScope) {
  const stop = new AbortController();
  const post = (message: FromEngineWorker) => scope.postMessage(message);
  let start: ((startAtEpochMs: number) => void) | undefined;
  const started = new Promise<number>((resolve) => start = resolve);
  scope.onmessage = async (event: MessageEvent<ToEngineWorker>) => {
    const message = event.data;
    if (message.type === "stop") {
      stop.abort();
      start?.(performance.timeOrigin + performance.now()); // a stop before the start ends at once
      return;
    }
    if (message.type === "start") {
      start?.(message.startAtEpochMs);
      return;
    }
    try {
      const run = await runEngine({
        plan: message.plan,
        shard: message.shard,
        startAt: () => {
          post({ type: "ready" });
          return started;
        },
        caCerts: message.caCerts,
        io: message.io,
        side: message.side,
        signal: stop.signal,
        onProgress: (progress) => post({ type: "progress", progress }),
        onNotice: (text) => post({ type: "notice", text }),
      });
      post({ type: "done", run: { ...run, startedAt: run.startedAt.toISOString() } });
    } catch (e) {
      post({ type: "failed", message: e instanceof Error ? e.message : String(e) });
    }
  };
}
