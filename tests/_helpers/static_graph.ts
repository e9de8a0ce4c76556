/**
 * The modules a static import of a file evaluates, from `deno info --json` with the dynamic
 * imports cut: what a test reads to prove a dependency is loaded only on demand.
 *
 * @module
 */

interface InfoModule {
  specifier: string;
  dependencies?: Array<{ code?: { specifier: string }; isDynamic?: boolean; isTypeOnly?: boolean }>;
}

/**
 * The specifiers `file` (an absolute path) evaluates when imported statically, itself included.
 *
 * @example
 * ```ts
 * import { staticGraph } from "./static_graph.ts";
 * const graph = await staticGraph(new URL("./free_port.ts", import.meta.url).pathname);
 * graph.some((s) => s.endsWith("free_port.ts")); // true
 * ```
 */
export async function staticGraph(file: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", file],
    stdout: "piped",
    stderr: "null",
  }).output();
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: InfoModule[] };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const walk = (specifier: string) => {
    if (seen.has(specifier)) return;
    seen.add(specifier);
    for (const d of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (d.isDynamic || d.isTypeOnly || d.code === undefined) continue;
      walk(d.code.specifier);
    }
  };
  const root = info.modules.find((m) => m.specifier.endsWith(file));
  if (root === undefined) throw new Error(`deno info did not list ${file}`);
  walk(root.specifier);
  return [...seen];
}
