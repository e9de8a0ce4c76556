/**
 * The runtime lockfile, `deno.runtime.lock`: deno.lock cut down to the npm packages tailgate
 * itself imports (deno.json's `imports`) and what they depend on. The npm launcher runs tailgate
 * with it (`--lock=deno.runtime.lock --frozen`), because Deno installs every npm package of the
 * lockfile it runs with, whatever the program imports: with deno.lock, the test tools
 * (puppeteer-core, marked and their 20-odd dependencies) were fetched on a user's first run.
 * deno.lock keeps locking everything, tests included; this file is derived from it, so both lock
 * the same versions with the same integrity hashes.
 *
 * Run `deno task runtime-lock` after a dependency changes; tests/ci/release/runtime_lock_test.ts
 * fails while the committed file is stale.
 *
 * @module
 */

/** The parts of a Deno lockfile (version 5) this file reads; other sections pass through. */
export interface DenoLock {
  version: string;
  specifiers?: Record<string, string>;
  npm?: Record<string, NpmEntry>;
  workspace?: { dependencies?: string[] } & Record<string, unknown>;
  [section: string]: unknown;
}

/** One npm package in a lockfile: `dependencies` are `name` or, when ambiguous, `name@version`. */
export interface NpmEntry {
  integrity?: string;
  dependencies?: string[];
  optionalDependencies?: string[];
  [field: string]: unknown;
}

/** The name of an npm key or reference: `@scope/name@1.2.3` → `@scope/name`. */
function nameOf(ref: string): string {
  const at = ref.indexOf("@", 1);
  return at === -1 ? ref : ref.slice(0, at);
}

/** The package key (`name@version`, a peer suffix included) a dependency reference points at. */
function keyOf(ref: string, keys: readonly string[]): string {
  if (keys.includes(ref)) return ref;
  const name = nameOf(ref);
  const found = keys.filter((k) => nameOf(k) === name && (ref === name || k.startsWith(`${ref}_`)));
  if (found.length !== 1) {
    throw new Error(`deno.lock: the reference ${ref} matches ${found.length} packages`);
  }
  return found[0];
}

/**
 * `lock` cut down to the npm packages `imports` names (`npm:name@version` values) and their
 * dependencies: the specifiers, the npm section and the workspace's dependencies. A reference
 * written `name@version` only because the full lock held two versions of `name` is written
 * `name` again when one is left, as Deno writes it, so Deno finds nothing to change (`--frozen`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runtimeLock } from "./runtime_lock.ts";
 * const lock = {
 *   version: "5",
 *   specifiers: { "npm:a@1.0.0": "1.0.0", "npm:t@2.0.0": "2.0.0" },
 *   npm: {
 *     "a@1.0.0": { integrity: "sha512-a", dependencies: ["b@1.0.0"] },
 *     "b@1.0.0": { integrity: "sha512-b1" },
 *     "b@2.0.0": { integrity: "sha512-b2" },
 *     "t@2.0.0": { integrity: "sha512-t", dependencies: ["b@2.0.0"] },
 *   },
 *   workspace: { dependencies: ["npm:a@1.0.0"] },
 * };
 * const runtime = runtimeLock(lock, { a: "npm:a@1.0.0" });
 * assert.deepEqual(Object.keys(runtime.npm!), ["a@1.0.0", "b@1.0.0"]);
 * assert.deepEqual(runtime.npm!["a@1.0.0"].dependencies, ["b"]);
 * assert.deepEqual(runtime.specifiers, { "npm:a@1.0.0": "1.0.0" });
 * ```
 */
export function runtimeLock(lock: DenoLock, imports: Record<string, string>): DenoLock {
  const pinned = Object.values(imports).filter((s) => s.startsWith("npm:"));
  const specifiers = Object.fromEntries(
    Object.entries(lock.specifiers ?? {}).filter(([s]) => pinned.includes(s)),
  );
  const missing = pinned.filter((s) => !(s in specifiers));
  if (missing.length > 0) {
    throw new Error(`deno.lock does not lock ${missing.join(", ")}: run a deno command first`);
  }
  const npm = lock.npm ?? {};
  const keys = Object.keys(npm);
  const kept = new Set<string>();
  const todo = Object.entries(specifiers).map(([s, v]) =>
    keyOf(`${nameOf(s.slice(4))}@${v}`, keys)
  );
  while (todo.length > 0) {
    const key = todo.pop()!;
    if (kept.has(key)) continue;
    kept.add(key);
    const entry = npm[key];
    for (const ref of [...entry.dependencies ?? [], ...entry.optionalDependencies ?? []]) {
      todo.push(keyOf(ref, keys));
    }
  }
  const keptKeys = keys.filter((k) => kept.has(k));
  const versions = (name: string) => keptKeys.filter((k) => nameOf(k) === name).length;
  const shorten = (refs: string[] | undefined) =>
    refs?.map((ref) => versions(nameOf(ref)) === 1 ? nameOf(ref) : ref);
  const runtimeNpm = Object.fromEntries(keptKeys.map((k) => {
    const entry = { ...npm[k] };
    if (entry.dependencies) entry.dependencies = shorten(entry.dependencies);
    if (entry.optionalDependencies) {
      entry.optionalDependencies = shorten(entry.optionalDependencies);
    }
    return [k, entry];
  }));
  const dependencies = (lock.workspace?.dependencies ?? []).filter((d) => pinned.includes(d));
  return {
    ...lock,
    specifiers,
    npm: runtimeNpm,
    ...(lock.workspace ? { workspace: { ...lock.workspace, dependencies } } : {}),
  };
}

/** A lockfile as Deno writes it: two-space JSON and a final newline. */
export function lockText(lock: DenoLock): string {
  return `${JSON.stringify(lock, null, 2)}\n`;
}

/** The runtime lock of the repository at `root` (a file URL ending in `/`), as text. */
export async function runtimeLockOf(root: URL): Promise<string> {
  const lock = JSON.parse(await Deno.readTextFile(new URL("deno.lock", root))) as DenoLock;
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  return lockText(runtimeLock(lock, config.imports ?? {}));
}

if (import.meta.main) {
  const root = new URL("../../", import.meta.url);
  const path = new URL("deno.runtime.lock", root);
  const text = await runtimeLockOf(root);
  await Deno.writeTextFile(path, text);
  const count = Object.keys(JSON.parse(text).npm).length;
  console.log(`deno.runtime.lock: ${count} npm packages, the runtime's`);
}
