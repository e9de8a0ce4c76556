/**
 * grpc-go's example servers (`greeter_server`, `route_guide_server`) and ghz, the gRPC peers
 * nobody here wrote: `.ci/install-tools` builds them into `~/.cache/tailgate-tools/grpc/bin` (or
 * `$TAILGATE_TOOLS_DIR/grpc/bin`). Fetching them from the Go module proxy may fail, and CI goes on
 * when it does, so a test that needs them is ignored with a note wherever one is missing, CI too.
 *
 * @module
 */
import { join } from "node:path";

/** The programs `.ci/install-tools` builds. */
export type GrpcTool = "greeter_server" | "route_guide_server" | "ghz";

/** The folder the programs are built into. */
export function grpcToolsDir(): string {
  const tools = Deno.env.get("TAILGATE_TOOLS_DIR") ??
    join(Deno.env.get("HOME") ?? "/tmp", ".cache", "tailgate-tools");
  return join(tools, "grpc", "bin");
}

/** The program's path, or undefined where it was not built. */
export function grpcTool(name: GrpcTool): string | undefined {
  const bin = join(grpcToolsDir(), name);
  try {
    return Deno.statSync(bin).isFile ? bin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `ignore` flag of a test that needs `names`: true, with a note naming the missing ones, when
 * any is missing. TAILGATE_REQUIRE_TOOLS does not change it: a failed fetch leaves CI green.
 */
export function ignoreWithoutGrpcTools(...names: GrpcTool[]): boolean {
  const missing = names.filter((n) => grpcTool(n) === undefined);
  if (missing.length === 0) return false;
  console.error(
    `note: ${missing.join(", ")} not built in ${grpcToolsDir()}; its tests are ignored ` +
      "(bash .ci/install-tools builds them)",
  );
  return true;
}
