/**
 * The servers verdict_noise.ts gates: the precise C delay server (servers/delay_epoll.c, built
 * with `cc -O2` at run time) and nginx (one worker, a static 11-byte page), each as the `sh -c`
 * command that starts it pinned to its core, in the foreground: the command the Action's
 * `ab-base-start`/`ab-head-start` take, and the one the history mode starts itself through
 * tailgate's own service starter (runner/service), stopped by its process group.
 *
 * @module
 */
import { join } from "node:path";
import { type ServiceProcess, startService } from "../../runner/service/mod.ts";
import { buildCServer } from "../_harness.ts";

/** Which server. */
export type ServerKind = "c" | "nginx";

/** What starting a server needs: the built C server, nginx's folder. */
export interface Servers {
  /** The study's temporary folder: binaries, nginx configuration, logs. */
  dir: string;
  /** The built delay server, when the C server is studied. */
  delayBinary?: string;
  /** The core every server runs on. */
  core: string;
}

/**
 * Builds what `kinds` need into `dir`: the C delay server; for nginx, its page and folders (read
 * by its worker, user nobody: the folders are opened to it). Throws when nginx is missing.
 */
export async function prepareServers(
  kinds: readonly ServerKind[],
  dir: string,
  core: string,
): Promise<Servers> {
  const servers: Servers = { dir, core };
  if (kinds.includes("c")) servers.delayBinary = await buildCServer("delay_epoll", dir);
  if (kinds.includes("nginx")) {
    const found = await new Deno.Command("sh", { args: ["-c", "command -v nginx"] }).output();
    if (!found.success) throw new Error("nginx is not installed: apt-get install -y nginx-light");
    await Deno.mkdir(join(dir, "nginx", "www"), { recursive: true });
    await Deno.mkdir(join(dir, "nginx", "logs"), { recursive: true });
    await Deno.writeTextFile(join(dir, "nginx", "www", "index.html"), "hello world");
    for (const d of [dir, join(dir, "nginx"), join(dir, "nginx", "www")]) {
      await Deno.chmod(d, 0o755);
    }
  }
  return servers;
}

/**
 * The `sh -c` command that runs the server on 127.0.0.1:`port` in the foreground, pinned to the
 * servers' core: the C server answering after `delayUs`, or nginx (which has no delay: it must
 * be undefined).
 */
export function serverCommand(
  s: Servers,
  kind: ServerKind,
  port: number,
  delayUs?: number,
): string {
  if (kind === "c") {
    if (s.delayBinary === undefined || delayUs === undefined) {
      throw new Error("the C server needs its build and a delay");
    }
    return `exec taskset -c ${s.core} ${s.delayBinary} ${port} ${delayUs}`;
  }
  if (delayUs !== undefined) throw new Error("nginx cannot be slowed precisely: no delay");
  const root = join(s.dir, "nginx");
  const conf = join(root, `nginx-${port}.conf`);
  Deno.writeTextFileSync(
    conf,
    `worker_processes 1;
daemon off;
error_log ${root}/logs/error-${port}.log warn;
pid ${root}/nginx-${port}.pid;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 10000000;
  server { listen 127.0.0.1:${port}; root ${root}/www; location / { } }
}
`,
  );
  return `exec taskset -c ${s.core} nginx -p ${root} -c ${conf} -e ${root}/logs/error-${port}.log`;
}

/** Starts the server for the history mode (a CI job's service, already running). */
export function startServer(
  s: Servers,
  kind: ServerKind,
  port: number,
  delayUs?: number,
): Promise<ServiceProcess> {
  return startService(
    { command: serverCommand(s, kind, port, delayUs), url: `http://127.0.0.1:${port}` },
    { logPath: join(s.dir, `server-${kind}-${port}.log`), readyTimeoutMs: 10_000 },
  );
}
