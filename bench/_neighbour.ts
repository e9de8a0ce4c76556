/**
 * The studies' noisy neighbour: a bounded busy loop on one core, on for 7 s and off for 7 s,
 * out of step with the runs, until stopped. Each loop is its own process group (setsid) with its
 * own 7 s timeout, and is ended by its PID's group; nothing else is touched.
 *
 * @module
 */

/** A running neighbour: pause it, resume it, stop it, and how many busy periods it ran. */
export interface Neighbour {
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
  periods(): number;
}

/**
 * Starts the on/off busy loop on `core`.
 *
 * @example
 * ```ts
 * import { startNeighbour } from "./_neighbour.ts";
 * // const hog = startNeighbour("0"); … await hog.stop();
 * ```
 */
export function startNeighbour(core: string): Neighbour {
  let hog: Deno.ChildProcess | undefined;
  let periods = 0;
  let stopped = false;
  let paused = false;
  const loop = (async () => {
    while (!stopped) {
      if (paused) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      hog = new Deno.Command("setsid", {
        args: ["taskset", "-c", core, "timeout", "7", "sh", "-c", "while :; do :; done"],
        stdout: "null",
        stderr: "null",
      }).spawn();
      periods++;
      await hog.status;
      hog = undefined;
      for (let i = 0; i < 70 && !stopped; i++) await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const killGroup = () => {
    if (hog === undefined) return;
    try {
      Deno.kill(-hog.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  };
  return {
    pause() {
      paused = true;
      killGroup();
    },
    resume() {
      paused = false;
    },
    async stop() {
      stopped = true;
      killGroup();
      await loop;
    },
    periods: () => periods,
  };
}

/** The machine's load average (1, 5, 15 minutes) as /proc/loadavg has it. */
export async function loadAverage(): Promise<string> {
  return (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
}
