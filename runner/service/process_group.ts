/**
 * Ending a process group that tailgate started: SIGTERM to every process in it, then, after a
 * grace period, SIGKILL to whatever is left, whatever the group's first process did meanwhile (a
 * child that ignores SIGTERM outlives a leader that exits). Whether a group still has a process
 * is read from /proc on Linux, where exited processes that nobody reaps (a container's init may
 * not) are left out; elsewhere a signal probe answers.
 *
 * @module
 */

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
  let entries: Iterable<Deno.DirEntry>;
  try {
    entries = Deno.readDirSync("/proc");
  } catch {
    return signalProbe(pgid) ? [pgid] : [];
  }
  const live: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry.name)) continue;
    let stat: string;
    try {
      stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
    } catch {
      continue; // gone meanwhile
    }
    // `pid (comm) state ppid pgrp ...`: the name may hold spaces and parentheses.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z" && state !== "X") live.push(Number(entry.name));
  }
  return live;
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

/** Without /proc: whether the group takes a harmless signal (exited, unreaped processes do too). */
function signalProbe(pgid: number): boolean {
  try {
    Deno.kill(-pgid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}
