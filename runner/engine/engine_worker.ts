/**
 * The Web Worker that runs one share of a plan's schedule (see run_plan.ts). It receives the
 * plan, its shard and the common start time, posts progress about once a second, and posts its
 * record when done. A "stop" message stops it like Ctrl-C.
 *
 * @module
 */
import type { ResolvedPlan } from "../plan/types.ts";
import type { ShardSpec } from "../schedule/build_schedule.ts";
import { type EngineRun, type Progress, runEngine } from "./engine.ts";

/** Messages to the worker. */
export type ToEngineWorker =
  | {
    type: "run";
    plan: ResolvedPlan;
    shard: ShardSpec;
    startAtEpochMs: number;
    caCerts?: string[];
  }
  | { type: "stop" };

/** Messages from the worker. */
export type FromEngineWorker =
  | { type: "progress"; progress: Progress }
  | { type: "done"; run: Omit<EngineRun, "startedAt"> & { startedAt: string } }
  | { type: "failed"; message: string };

// deno-lint-ignore no-explicit-any
const scope = globalThis as any;
if (typeof scope.WorkerGlobalScope !== "undefined" && scope instanceof scope.WorkerGlobalScope) {
  const stop = new AbortController();
  const post = (message: FromEngineWorker) => scope.postMessage(message);
  scope.onmessage = async (event: MessageEvent<ToEngineWorker>) => {
    const message = event.data;
    if (message.type === "stop") {
      stop.abort();
      return;
    }
    try {
      const run = await runEngine({
        plan: message.plan,
        shard: message.shard,
        startAtEpochMs: message.startAtEpochMs,
        caCerts: message.caCerts,
        signal: stop.signal,
        onProgress: (progress) => post({ type: "progress", progress }),
      });
      post({ type: "done", run: { ...run, startedAt: run.startedAt.toISOString() } });
    } catch (e) {
      post({ type: "failed", message: e instanceof Error ? e.message : String(e) });
    }
  };
}
