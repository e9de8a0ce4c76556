/**
 * tls_target_main.ts in a child process, on a free loopback port; stopped by its PID.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { awaitListening, type TargetProcess } from "../../runner/target/spawn_target.ts";

const MAIN = fileURLToPath(new URL("./tls_target_main.ts", import.meta.url));

/** Starts the TLS target with `args` and resolves once it listens (30 s at most). */
export function startTlsTarget(args: string[]): Promise<TargetProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net=127.0.0.1", "--allow-read", MAIN, ...args],
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  return awaitListening(child, /listening on (https:\/\/\S+) /, "the TLS target");
}
