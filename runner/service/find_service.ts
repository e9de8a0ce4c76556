/**
 * Finding the processes of the service under test, so the contention probe can read their
 * threads' wait for a CPU: the group tailgate started it in (`liveGroupMembers`), or, for a
 * loopback target, the processes that hold its listening socket (the socket's inode from
 * `/proc/net/tcp` and `tcp6`, then every `/proc/PID/fd` that links to it; a process tailgate may
 * not read is skipped). Linux only; elsewhere nothing is found.
 *
 * @module
 */
import { isLoopbackHost, listeningInodes } from "./listening_sockets.ts";
import { liveGroupMembers } from "./process_group.ts";

/** The service's processes as found: how, their PIDs, and their command names. */
export interface FoundService {
  /** `started`: the group tailgate started; `listening_socket`: they hold the target's socket. */
  found: "started" | "listening_socket";
  pids: number[];
  /** Their distinct command names (`/proc/PID/comm`), in PID order, comma-separated. */
  name: string;
}

/**
 * Proxies that hold a loopback port for a service elsewhere (a container's): their own wait is
 * not the service's, so a socket held only by one of them finds no service.
 */
const PROXIES: ReadonlySet<string> = new Set(["docker-proxy", "rootlessport"]);

/** The port a URL reaches: its own, or its scheme's. */
function portOf(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

/**
 * The service behind `url`, read once: the live processes of the group `pgid` tailgate started
 * it in (`started`), else, for a loopback target, the processes that hold its listening socket
 * (`listening_socket`). A started group that does not hold the socket a loopback target's
 * connections reach (`--start "docker run -p …"`: the client is in the group, the server is not)
 * gives way to the socket's holders. Undefined when nothing is found: a target on another machine
 * that tailgate did not start, no socket or holder that can be seen, or only a proxy
 * ({@linkcode PROXIES}) holding it.
 */
export function findService(
  target: { url: URL; pgid?: number },
  procRoot = "/proc",
): FoundService | undefined {
  const group = target.pgid === undefined
    ? []
    : liveGroupMembers(target.pgid).sort((a, b) => a - b);
  const holders = listeningHolders(target.url, procRoot);
  if (group.length > 0 && (holders.length === 0 || holders.some((p) => group.includes(p)))) {
    return { found: "started", pids: group, name: processNames(group, procRoot) };
  }
  // tailgate's own process serving the target (the built-in target, a test's server) is no
  // service apart from the generator: its threads' wait is the generator's own (servedInProcess).
  const served = holders.filter((pid) =>
    pid !== Deno.pid && !PROXIES.has(commOf(pid, procRoot) ?? "")
  );
  if (served.length === 0) return undefined;
  return { found: "listening_socket", pids: served, name: processNames(served, procRoot) };
}

/**
 * Whether tailgate's own process holds the listening socket of `url` (a target served in the same
 * process: the built-in target, a test's server). Its wait for a CPU is then the generator's own,
 * which the measured floor already counts; nothing stands for a service apart from it.
 */
export function servedInProcess(url: URL, procRoot = "/proc"): boolean {
  return listeningHolders(url, procRoot).includes(Deno.pid);
}

/**
 * The processes that hold the socket listening for `url`, a loopback URL, on this machine
 * (tailgate's own included), in PID order; none for another host or when none can be seen.
 */
export function listeningHolders(url: URL, procRoot = "/proc"): number[] {
  if (!isLoopbackHost(url.hostname)) return [];
  return socketHolders(listeningInodesOf(url, procRoot), procRoot);
}

/** The inodes of the sockets listening for `url` on this machine, from both TCP tables. */
function listeningInodesOf(url: URL, procRoot: string): Set<number> {
  const inodes = new Set<number>();
  for (const table of ["tcp", "tcp6"]) {
    const text = readText(`${procRoot}/net/${table}`);
    if (text === undefined) continue;
    for (const inode of listeningInodes(text, portOf(url), url.hostname)) inodes.add(inode);
  }
  return inodes;
}

/**
 * The distinct command names of `pids` in their order, comma-separated (`nginx`, `sh, python3`);
 * `?` when none can be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { processNames } from "./find_service.ts";
 * assert.equal(processNames([Deno.pid]), "deno");
 * ```
 */
export function processNames(pids: readonly number[], procRoot = "/proc"): string {
  const names = [...new Set(pids.map((pid) => commOf(pid, procRoot)).filter((n) => n))];
  return names.length > 0 ? names.join(", ") : "?";
}

/** The PIDs whose open files include one of the sockets `inodes`, in PID order. */
function socketHolders(inodes: ReadonlySet<number>, procRoot: string): number[] {
  if (inodes.size === 0) return [];
  const links = new Set([...inodes].map((inode) => `socket:[${inode}]`));
  const pids: number[] = [];
  let entries: Iterable<Deno.DirEntry>;
  try {
    entries = Deno.readDirSync(procRoot);
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      for (const fd of Deno.readDirSync(`${procRoot}/${entry.name}/fd`)) {
        if (links.has(readLink(`${procRoot}/${entry.name}/fd/${fd.name}`))) {
          pids.push(Number(entry.name));
          break;
        }
      }
    } catch {
      continue; // gone, or not ours to read
    }
  }
  return pids.sort((a, b) => a - b);
}

function readLink(path: string): string {
  try {
    return Deno.readLinkSync(path);
  } catch {
    return "";
  }
}

function commOf(pid: number, procRoot: string): string | undefined {
  return readText(`${procRoot}/${pid}/comm`)?.trim();
}

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}
