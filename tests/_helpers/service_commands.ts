/**
 * Start commands for the tests of started services (runner/service, `tailgate ab`), and a look at
 * which processes of a group are alive.
 *
 * @module
 */

/**
 * A command that serves `port` with Deno until killed, printing "up" and "pid N" first.
 *
 * @example
 * ```ts
 * import { serveCommand } from "./service_commands.ts";
 * serveCommand(8080); // "exec /…/deno eval '…'"
 * ```
 */
export function serveCommand(port: number): string {
  return `exec ${serveProgram(port)}`;
}

/**
 * The program of {@linkcode serveCommand}, for a command that runs it otherwise (under `setsid`,
 * in the background).
 *
 * @example
 * ```ts
 * import { serveProgram } from "./service_commands.ts";
 * serveProgram(8080); // "/…/deno eval '…'"
 * ```
 */
export function serveProgram(port: number): string {
  const code =
    `console.log("up"); console.log("pid", Deno.pid); Deno.serve({ hostname: "127.0.0.1", port: ${port}, onListen() {} }, () => new Response("ok"));`;
  return `${Deno.execPath()} eval '${code}'`;
}

/**
 * A service that leaves the command's process group and session: `setsid` before the server.
 *
 * @example
 * ```ts
 * import { setsidCommand } from "./service_commands.ts";
 * setsidCommand(8080); // "setsid /…/deno eval '…'"
 * ```
 */
export function setsidCommand(port: number): string {
  return `setsid ${serveProgram(port)}`;
}

/**
 * A service that daemonizes as nginx or pg_ctl do: the command leaves a process behind, orphaned
 * at once (its parent, a subshell, exits), and exits 0; 0.3 s later that process starts the
 * server in a session of its own.
 *
 * @example
 * ```ts
 * import { daemonCommand } from "./service_commands.ts";
 * daemonCommand(8080); // "(sleep 0.3 && setsid /…/deno eval '…' &); exit 0"
 * ```
 */
export function daemonCommand(port: number): string {
  return `(sleep 0.3 && setsid ${serveProgram(port)} &); exit 0`;
}

/**
 * Whether something accepts a TCP connection on 127.0.0.1:`port`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answers } from "./service_commands.ts";
 * const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
 * assert.equal(await answers((listener.addr as Deno.NetAddr).port), true);
 * listener.close();
 * ```
 */
export async function answers(port: number): Promise<boolean> {
  try {
    (await Deno.connect({ hostname: "127.0.0.1", port })).close();
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether process `pid` is alive, as `ps` lists it (an exited one nobody reaped is not).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { alive } from "./service_commands.ts";
 * assert.equal(alive(Deno.pid), true);
 * ```
 */
export function alive(pid: number): boolean {
  const { stdout } = new Deno.Command("ps", { args: ["-o", "stat=", "-p", String(pid)] })
    .outputSync();
  const stat = new TextDecoder().decode(stdout).trim();
  return stat !== "" && !stat.startsWith("Z");
}

/**
 * A service that answers on `port` and leaves a child (30 s at most) that ignores SIGTERM and
 * holds the output it inherited; with `leaderIgnores`, the service ignores SIGTERM as well.
 *
 * @example
 * ```ts
 * import { stubbornCommand } from "./service_commands.ts";
 * stubbornCommand(8080, true); // 'trap "" TERM; (sleep 30) & exec …'
 * ```
 */
export function stubbornCommand(port: number, leaderIgnores: boolean): string {
  const serve = serveCommand(port);
  return leaderIgnores
    ? `trap "" TERM; (sleep 30) & ${serve}`
    : `(trap "" TERM; sleep 30) & ${serve}`;
}

/**
 * Processes of group `pgid` still alive, as `ps` lists them: exited ones that nobody reaped (a
 * container's init may never reap them) are left out.
 *
 * @example
 * ```ts
 * import { liveMembers } from "./service_commands.ts";
 * liveMembers(2 ** 22 + 1); // []
 * ```
 */
export function liveMembers(pgid: number): number[] {
  const { stdout } = new Deno.Command("ps", { args: ["-e", "-o", "pid=,pgid=,stat="] })
    .outputSync();
  return new TextDecoder().decode(stdout).trim().split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, group, stat]) => Number(group) === pgid && !stat.startsWith("Z"))
    .map(([pid]) => Number(pid));
}

/**
 * The process group a start command printed as `group N` (`echo "group $$"`) in its log, so a
 * test can look at the group after tailgate stopped it.
 *
 * @example
 * ```ts
 * import { loggedGroup } from "./service_commands.ts";
 * // await loggedGroup("out/service.log"); // 12345
 * ```
 */
export async function loggedGroup(logPath: string): Promise<number> {
  const log = await Deno.readTextFile(logPath);
  const pgid = Number(/^group (\d+)$/m.exec(log)?.[1]);
  if (!(pgid > 0)) throw new Error(`no "group N" line in ${logPath}: ${log}`);
  return pgid;
}

/**
 * The PIDs of the servers a log shows ("pid N" lines, as {@linkcode serveProgram} prints).
 *
 * @example
 * ```ts
 * import { loggedPids } from "./service_commands.ts";
 * // await loggedPids("out/service.log"); // [12345]
 * ```
 */
export async function loggedPids(logPath: string): Promise<number[]> {
  const log = await Deno.readTextFile(logPath);
  return [...log.matchAll(/^pid (\d+)$/gm)].map((m) => Number(m[1]));
}
