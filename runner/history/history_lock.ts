/**
 * An exclusive lock on one plan's history file, so two runs appending at once (two local runs, two
 * CI jobs sharing a folder) each re-read the history under the lock and neither loses the other's
 * run. The lock is `<path>.lock`, created whole with its owner in it (written beside it, then
 * hard-linked into place, so no reader ever sees it empty). A lock without a live owner is stale
 * at once and taken over: empty or unreadable, or naming a process of this machine that is no
 * longer running (or a PID since reused by another process, told apart by its start time). A
 * lock from another machine is taken over when older than {@linkcode STALE_LOCK_MS}. Waiting for
 * a live owner ends after {@linkcode LOCK_WAIT_MS}, or at once on the caller's signal.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";

/** A lock of another machine held longer than this is stale: appending takes milliseconds. */
export const STALE_LOCK_MS = 30_000;

/** How long to wait for another holder before giving up. */
export const LOCK_WAIT_MS = 15_000;

/** Options of {@linkcode withHistoryLock}. */
export interface HistoryLockOptions {
  /** Ctrl-C or SIGTERM: stop waiting for the lock at once. */
  signal?: AbortSignal;
}

/**
 * Runs `work` while holding `<path>.lock`, and removes the lock afterwards whatever happens.
 * Throws, naming the lock, when it stays held by a live owner for {@linkcode LOCK_WAIT_MS}, when
 * `signal` stops the wait, or when the lock cannot be written (a full disk, a read-only folder).
 */
export async function withHistoryLock<T>(
  path: string,
  work: () => Promise<T>,
  options: HistoryLockOptions = {},
): Promise<T> {
  const lock = `${path}.lock`;
  const here = currentLockOwner();
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0;; attempt++) {
    if (options.signal?.aborted) throw stopped(lock);
    if (await takeLock(lock, JSON.stringify(here) + "\n")) break;
    const held = await readLock(lock);
    if (held === undefined) continue; // released meanwhile
    if (isStale(held, here)) {
      // Removed only if it is still the lock judged stale, not one a new owner just took.
      if ((await readLock(lock))?.text === held.text) await Deno.remove(lock).catch(() => {});
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${lock} is held by another run (${describe(held.owner!)}) for over ` +
          `${LOCK_WAIT_MS / 1000} s; if no run is updating this history, remove the lock file`,
      );
    }
    await pause(Math.min(50, 5 + attempt * 5), lock, options.signal);
  }
  try {
    return await work();
  } finally {
    await Deno.remove(lock).catch(() => {});
  }
}

/** Creates `lock` holding `text`, or returns false when it exists already. */
async function takeLock(lock: string, text: string): Promise<boolean> {
  const tmp = join(dirname(lock), `.${basename(lock)}.${Deno.pid}.${crypto.randomUUID()}.tmp`);
  try {
    await Deno.writeTextFile(tmp, text, { createNew: true });
    await Deno.link(tmp, lock);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) return false;
    throw new Error(`cannot take the history lock ${lock}: ${(e as Error).message}`, {
      cause: e,
    });
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
}

/** The lock's text, owner and age, or undefined when there is no lock. */
async function readLock(
  lock: string,
): Promise<{ text: string; owner?: LockOwner; ageMs: number } | undefined> {
  try {
    const info = await Deno.stat(lock);
    const text = info.isFile && info.size < 4096 ? await Deno.readTextFile(lock) : "";
    const owner = parseOwner(text);
    const ageMs = Date.now() - (info.mtime?.getTime() ?? Date.now());
    return { text, ...(owner ? { owner } : {}), ageMs };
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}

function isStale(held: { owner?: LockOwner; ageMs: number }, here: LockOwner): boolean {
  const owner = held.owner;
  if (owner === undefined) return true;
  if (owner.host !== here.host || here.startTicks === undefined) {
    return held.ageMs > STALE_LOCK_MS;
  }
  if (owner.bootId !== undefined && here.bootId !== undefined && owner.bootId !== here.bootId) {
    return true;
  }
  const running = processStartTicks(owner.pid);
  return running === undefined || (owner.startTicks !== undefined && running !== owner.startTicks);
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(text);
    return Number.isSafeInteger(owner?.pid) && owner.pid > 0 && typeof owner.host === "string"
      ? owner
      : undefined;
  } catch {
    return undefined;
  }
}

function describe(owner: LockOwner): string {
  return `process ${owner.pid} on ${owner.host}`;
}

function stopped(lock: string): Error {
  return new Error(`stopped waiting for the history lock ${lock}: interrupted`);
}

function pause(ms: number, lock: string, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(stopped(lock));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Who holds a lock, as its file records it. */
export interface LockOwner {
  /** The owner's process id. */
  pid: number;
  /** The machine's name: a PID is only meaningful on its own machine. */
  host: string;
  /** Linux's boot id: a PID from before a reboot is no one's. */
  bootId?: string;
  /** When the process started, in clock ticks since boot (Linux): tells a reused PID apart. */
  startTicks?: number;
}

/**
 * This process as a lock owner.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { currentLockOwner } from "./history_lock.ts";
 * assert.equal(currentLockOwner().pid === Deno.pid, true);
 * ```
 */
export function currentLockOwner(): LockOwner {
  const bootId = readProc("/proc/sys/kernel/random/boot_id")?.trim();
  const startTicks = processStartTicks(Deno.pid);
  return {
    pid: Deno.pid,
    host: Deno.hostname(),
    ...(bootId ? { bootId } : {}),
    ...(startTicks === undefined ? {} : { startTicks }),
  };
}

/** Field 22 of /proc/<pid>/stat, the process's start time; undefined when it is not running. */
function processStartTicks(pid: number): number | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  // The command name (field 2) may hold spaces and parentheses: fields count from its end.
  const fields = stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields?.[19]);
  return Number.isSafeInteger(ticks) ? ticks : undefined;
}

function readProc(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}
