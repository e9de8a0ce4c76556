/**
 * json-server 0.17 with json-server-auth 2 (npm), a CRUD server nobody here wrote, for the proof
 * that journeys send what they say: `.ci/install-tools` installs both into
 * `~/.cache/tailgate-tools/json-server` (or `$TAILGATE_TOOLS_DIR/json-server`). Its request log
 * (morgan's `dev` format: `POST /660/items 201 7.018 ms - 36`) is read back line by line.
 *
 * @module
 */
import { join } from "node:path";

/** The folder the servers are installed in. */
export function jsonServerDir(): string {
  const tools = Deno.env.get("TAILGATE_TOOLS_DIR") ??
    join(Deno.env.get("HOME") ?? "/tmp", ".cache", "tailgate-tools");
  return join(tools, "json-server");
}

/** The `json-server-auth` program, or undefined where it is not installed. */
export function jsonServerAuthBin(): string | undefined {
  const bin = join(jsonServerDir(), "node_modules", ".bin", "json-server-auth");
  try {
    return Deno.statSync(bin).isFile ? bin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `ignore` flag of a test that needs json-server-auth: true (with a note) where it is missing,
 * unless TAILGATE_REQUIRE_TOOLS=1 asks for the test to run and fail.
 */
export function ignoreWithoutJsonServer(): boolean {
  if (jsonServerAuthBin() !== undefined || Deno.env.get("TAILGATE_REQUIRE_TOOLS") === "1") {
    return false;
  }
  console.error(
    "note: json-server-auth is not installed; its tests are ignored (bash .ci/install-tools " +
      "installs it)",
  );
  return true;
}

/** One request as json-server logged it. */
export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
}

/**
 * The requests of a json-server log, in the order it logged them (each when its response was
 * sent); other lines (its banner) are skipped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loggedRequests } from "./json_server.ts";
 * const log = "  Done\n\u001b[0mGET /660/items/3 \u001b[32m200\u001b[0m 4.182 ms - 36\u001b[0m\n";
 * assert.deepEqual(loggedRequests(log), [{ method: "GET", path: "/660/items/3", status: 200 }]);
 * ```
 */
export function loggedRequests(log: string): LoggedRequest[] {
  // deno-lint-ignore no-control-regex
  const plain = log.replace(/\u001b\[[0-9;]*m/g, "");
  const out: LoggedRequest[] = [];
  for (const line of plain.split("\n")) {
    const m = /^([A-Z]+) (\S+) (\d{3}) [\d.]+ ms/.exec(line.trim());
    if (m) out.push({ method: m[1], path: m[2], status: Number(m[3]) });
  }
  return out;
}
