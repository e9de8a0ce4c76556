/**
 * The processes of a started service as a tree: every process below the one tailgate started
 * (children, their children, and orphans it adopted as a subreaper), read from /proc, and how
 * they are ended. Only a process below that root, or in the service's own process group, is ever
 * signalled: nothing else on the machine. Linux; elsewhere (no /proc) only the group is seen.
 *
 * @module
 */

/** One process as `/proc/PID/stat` has it. */
export interface ProcessEntry {
  pid: number;
  /** Its parent's PID. */
  ppid: number;
  /** Its process group. */
  pgrp: number;
  /** R, S, D, T, t: alive; Z, X: exited, not yet reaped. */
  state: string;
}

/** How long after SIGKILL the processes may take to be gone before {@linkcode endProcessTree} returns. */
const KILL_WAIT_MS = 1_000;
/** How often the processes are looked at while they are ending. */
const POLL_MS = 50;

/**
 * Every process of the machine, read from /proc at once (one that exits meanwhile is left out);
 * undefined when /proc cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readProcesses } from "./process_tree.ts";
 * const me = readProcesses()?.find((p) => p.pid === Deno.pid);
 * assert.equal(me?.state === "R" || me?.state === "S", true);
 * ```
 */
export function readProcesses(procRoot = "/proc"): ProcessEntry[] | undefined {
  let entries: Iterable<Deno.DirEntry>;
  try {
    entries = Deno.readDirSync(procRoot);
  } catch {
    return undefined;
  }
  const processes: ProcessEntry[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry.name)) continue;
    let stat: string;
    try {
      stat = Deno.readTextFileSync(`${procRoot}/${entry.name}/stat`);
    } catch {
      continue; // gone meanwhile
    }
    // `pid (comm) state ppid pgrp ...`: the name may hold spaces and parentheses.
    const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    processes.push({ pid: Number(entry.name), ppid: Number(ppid), pgrp: Number(pgrp), state });
  }
  return processes;
}

/** Whether a process is alive: running, sleeping or stopped; not exited and waiting to be reaped. */
export function isAlive(process: ProcessEntry): boolean {
  return process.state !== "Z" && process.state !== "X";
}

/**
 * The processes below `root` in `processes`: its children, theirs, and so on (any state).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { descendantsOf } from "./process_tree.ts";
 * const p = (pid: number, ppid: number) => ({ pid, ppid, pgrp: pid, state: "S" });
 * const table = [p(1, 0), p(10, 1), p(11, 10), p(12, 11), p(20, 1)];
 * assert.deepEqual(descendantsOf(table, 10).map((e) => e.pid), [11, 12]);
 * ```
 */
export function descendantsOf(processes: readonly ProcessEntry[], root: number): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>();
  for (const p of processes) {
    if (p.pid === p.ppid) continue;
    children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  }
  const found: ProcessEntry[] = [];
  const seen = new Set<number>([root]);
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found.sort((a, b) => a.pid - b.pid);
}

/**
 * The live processes of a service: below `root`, or in process group `pgid`, alive. Without
 * /proc, the group's id when the group answers a harmless signal.
 */
export function liveServiceProcesses(root: number, pgid: number, procRoot = "/proc"): number[] {
  const processes = readProcesses(procRoot);
  if (processes === undefined) return groupAnswers(pgid) ? [pgid] : [];
  return liveIn(processes, root, pgid);
}

/**
 * Sends `signal` to every live process of the service (below `root`, or in group `pgid`), read
 * afresh (without /proc, to the group); returns the PIDs signalled. One already gone is no error.
 */
export function signalService(
  root: number,
  pgid: number,
  signal: Deno.Signal,
  procRoot = "/proc",
): number[] {
  const processes = readProcesses(procRoot);
  const pids = processes === undefined ? [-pgid] : liveIn(processes, root, pgid);
  for (const pid of pids) {
    try {
      Deno.kill(pid, signal);
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** The live processes below `root` or in group `pgid`, `root` left out, in PID order. */
function liveIn(processes: readonly ProcessEntry[], root: number, pgid: number): number[] {
  const pids = new Set(descendantsOf(processes, root).filter(isAlive).map((p) => p.pid));
  for (const p of processes) if (p.pgrp === pgid && isAlive(p)) pids.add(p.pid);
  pids.delete(root);
  return [...pids].sort((a, b) => a - b);
}

/**
 * Ends every process of the service below `root` or in group `pgid`: SIGTERM (and SIGCONT, so a
 * stopped one sees it), up to `graceMs` for them to exit, then SIGKILL to what is left. Resolves
 * once none is alive, or 1 s after the SIGKILL at the latest. `look` runs at each look (a
 * subreaper reaps its adopted orphans there).
 */
export async function endProcessTree(
  root: number,
  pgid: number,
  graceMs: number,
  look: () => void = () => {},
): Promise<void> {
  signalService(root, pgid, "SIGTERM");
  signalService(root, pgid, "SIGCONT");
  if (await goneWithin(root, pgid, graceMs, look)) return;
  signalService(root, pgid, "SIGKILL");
  await goneWithin(root, pgid, KILL_WAIT_MS, look);
}

async function goneWithin(
  root: number,
  pgid: number,
  ms: number,
  look: () => void,
): Promise<boolean> {
  const deadline = performance.now() + ms;
  for (;;) {
    look();
    if (liveServiceProcesses(root, pgid).length === 0) return true;
    if (performance.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Without /proc: whether the group takes a harmless signal (exited, unreaped processes do too). */
export function groupAnswers(pgid: number): boolean {
  try {
    Deno.kill(-pgid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}
