/**
 * Start commands for the tests of started services (runner/service, `tailgate ab`), and a look at
 * which processes of a group are alive.
 *
 * @module
 */

/**
 * A command that serves `port` with Deno until killed, printing "up" first.
 *
 * @example
 * ```ts
 * import { serveCommand } from "./service_commands.ts";
 * serveCommand(8080); // "exec /…/deno eval '…'"
 * ```
 */
export function serveCommand(port: number): string {
  const code =
    `console.log("up"); Deno.serve({ hostname: "127.0.0.1", port: ${port}, onListen() {} }, () => new Response("ok"));`;
  return `exec ${Deno.execPath()} eval '${code}'`;
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
