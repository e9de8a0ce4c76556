/**
 * An exclusive lock on one plan's history file, so two runs appending at once (two local runs, two
 * CI jobs sharing a folder) each re-read the history under the lock and neither loses the other's
 * run. A lock file created with `createNew` is the lock; one older than {@linkcode STALE_LOCK_MS}
 * is left by a process that died holding it and is taken over.
 *
 * @module
 */

/** A lock held longer than this is stale: appending takes milliseconds. */
export const STALE_LOCK_MS = 30_000;

/** How long to wait for another holder before giving up. */
export const LOCK_WAIT_MS = 15_000;

/**
 * Runs `work` while holding `<path>.lock`, and removes the lock afterwards whatever happens.
 * Throws when the lock stays held by a live holder for {@linkcode LOCK_WAIT_MS}.
 *
 * @example
 * ```ts
 * import { withHistoryLock } from "./history_lock.ts";
 * // await withHistoryLock(".tailgate/baselines/shop.json", () => appendUnderLock());
 * ```
 */
export async function withHistoryLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0;; attempt++) {
    try {
      const file = await Deno.open(lock, { write: true, createNew: true });
      await file.write(new TextEncoder().encode(`${Deno.pid}\n`));
      file.close();
      break;
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
      const info = await Deno.stat(lock).catch(() => undefined);
      if (info?.mtime && Date.now() - info.mtime.getTime() > STALE_LOCK_MS) {
        await Deno.remove(lock).catch(() => {});
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(
          `${lock} is held by another run for over ${LOCK_WAIT_MS / 1000} s; if no run is ` +
            "updating this history, remove the lock file",
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, 5 + attempt * 5)));
    }
  }
  try {
    return await work();
  } finally {
    await Deno.remove(lock).catch(() => {});
  }
}
