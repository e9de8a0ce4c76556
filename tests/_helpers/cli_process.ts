/**
 * `tailgate` run as a process of its own, for the tests of what it does on a signal: started with
 * `deno run --allow-all cli.ts` in the repository, its standard error collected as it comes.
 *
 * @module
 */
import assert from "node:assert/strict";
import { REPO_ROOT } from "./source_files.ts";

/** `tailgate` in a process of its own; its stderr is collected as it comes. */
export function spawnCli(args: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "cli.ts", ...args],
    cwd: REPO_ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  let stderr = "";
  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const chunk of child.stderr) stderr += decoder.decode(chunk, { stream: true });
  })();
  const stdout = new Response(child.stdout).text();
  return {
    child,
    stderr: () => stderr,
    /** Sends `signal`; resolves once the process exits, failing (and killing it) after `boundMs`. */
    async stop(signal: Deno.Signal, boundMs: number) {
      const sentMs = performance.now();
      child.kill(signal);
      return await this.exit(boundMs, sentMs);
    },
    async exit(boundMs: number, sinceMs = performance.now()) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<"late">((r) => timer = setTimeout(() => r("late"), boundMs));
      const status = await Promise.race([child.status, late]);
      clearTimeout(timer);
      if (status === "late") {
        child.kill("SIGKILL");
        await child.status;
        await reading;
        assert.fail(`still running ${boundMs} ms later; its output:\n${stderr.slice(-2000)}`);
      }
      await reading;
      return { code: status.code, ms: performance.now() - sinceMs, stdout: await stdout, stderr };
    },
  };
}

/** Polls every 10 ms, at most `boundMs`, until `ready()`. */
export async function until(ready: () => boolean, boundMs: number, what: string): Promise<void> {
  for (const start = performance.now(); !ready(); await new Promise((r) => setTimeout(r, 10))) {
    if (performance.now() - start > boundMs) assert.fail(`not ${what} within ${boundMs} ms`);
  }
}

/** Whether process `pid` has a handler for SIGTERM (tailgate's listener is installed). */
export function catchesSigterm(pid: number): boolean {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const mask = BigInt(`0x${/^SigCgt:\s*([0-9a-f]+)$/m.exec(status)?.[1] ?? "0"}`);
  return (mask & (1n << 14n)) !== 0n;
}

/**
 * The CPU time process `pid` has used, its threads' user and system time, in milliseconds
 * (/proc/PID/stat; 100 ticks a second, Linux's USER_HZ): how far a command got, whatever the load
 * of the machine.
 */
export function cpuMs(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  // The fields after the command's name (in parentheses, which may hold spaces): utime is 14th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
