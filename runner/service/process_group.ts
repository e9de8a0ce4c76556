/**
 * Ending a process group (the bench's servers; a started service is ended as a tree, by its
 * keeper: process_tree.ts, service_keeper.ts): SIGTERM to every process in it, then, after a
 * grace period, SIGKILL to whatever is left, whatever the group's first process did meanwhile (a
 * child that ignores SIGTERM outlives a leader that exits). Whether a group still has a process
 * is read from /proc on Linux, where exited processes that nobody reaps (a container's init may
 * not) are left out; elsewhere a signal probe answers.
 *
 * @module
 */
import { groupAnswers, isAlive, readProcesses } from "./process_tree.ts";

/** How long after SIGKILL the group may take to be gone before {@linkcode endProcessGroup} returns. */
const KILL_WAIT_MS = 1_000;
/** How often the group is looked at while it is ending. */
const POLL_MS = 50;

/**
 * The processes of group `pgid` that are alive (running, sleeping or stopped; not exited).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { liveGroupMembers } from "./process_group.ts";
 * assert.equal(liveGroupMembers(2 ** 22 + 1).length, 0); // no such group
 * ```
 */
export function liveGroupMembers(pgid: number): number[] {
  const processes = readProcesses();
  if (processes === undefined) return groupAnswers(pgid) ? [pgid] : [];
  return processes.filter((p) => p.pgrp === pgid && isAlive(p)).map((p) => p.pid);
}

/**
 * Ends group `pgid`: SIGTERM (and SIGCONT, so a stopped process sees it), up to `graceMs` for the
 * group to exit, then SIGKILL to what is left. Resolves once no process of the group is alive, or
 * 1 s after the SIGKILL at the latest.
 */
export async function endProcessGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, "SIGTERM");
  signalGroup(pgid, "SIGCONT");
  if (await goneWithin(pgid, graceMs)) return;
  signalGroup(pgid, "SIGKILL");
  await goneWithin(pgid, KILL_WAIT_MS);
}

/**
 * Sends `signal` to every process of group `pgid`; a group already gone is no error.
 */
export function signalGroup(pgid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

async function goneWithin(pgid: number, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (liveGroupMembers(pgid).length > 0) {
    if (performance.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return true;
}
