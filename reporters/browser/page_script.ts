/**
 * Turns the browser modules of this folder into one page script: each module's types stripped
 * (`stripTypeScriptTypes` of `node:module`, in its whitespace-keeping mode, which refuses any
 * TypeScript that is not erasable), its imports of the other modules bound to their exports, each
 * module in a function scope of its own, dependencies first, and the entry function called. The
 * result is plain JavaScript for one inline `<script>`, leaking no global.
 *
 * What the browser modules may use: `import type` from anywhere (erased), value imports in the
 * form `import { a, b as c } from "./module.ts"` from the modules given, and exports in the form
 * `export function name` or `export const name`. Anything else is refused with the module named.
 *
 * @module
 */
import nodeModule from "node:module";

/** A browser module's file name (`chart_kit.ts`) and TypeScript source. */
export interface BrowserModule {
  /** The file name other modules import it by (`./chart_kit.ts`, without the `./`). */
  name: string;
  /** Its TypeScript source. */
  source: string;
}

const IMPORT = /^import\s*\{([^}]*)\}\s*from\s*"\.\/([a-z0-9_]+\.ts)";?[ \t]*$/gm;
const ANY_IMPORT = /^import\b/m;
const EXPORT = /^export (function|const) ([A-Za-z0-9_$]+)/gm;
const ANY_EXPORT = /^export\b/m;

interface Emitted {
  dependencies: string[];
  exported: string[];
  body: string;
}

/** A module's JavaScript: types stripped, imports bound to their modules, exports returned. */
function emit(module: BrowserModule, scopeOf: (name: string) => string): Emitted {
  const js = nodeModule.stripTypeScriptTypes(module.source, { mode: "strip" });
  const dependencies: string[] = [];
  let body = js.replace(IMPORT, (_, names: string, from: string) => {
    dependencies.push(from);
    const bindings = names.split(",").map((n) => n.trim()).filter(Boolean)
      .map((n) => n.replace(/\s+as\s+/, ": "));
    return `const { ${bindings.join(", ")} } = ${scopeOf(from)};`;
  });
  if (ANY_IMPORT.test(body)) {
    throw new Error(`${module.name}: a browser module imports only \`{ … }\` from "./*.ts"`);
  }
  const exported: string[] = [];
  body = body.replace(EXPORT, (_, kind: string, name: string) => {
    exported.push(name);
    return `${kind} ${name}`;
  });
  if (ANY_EXPORT.test(body)) {
    throw new Error(`${module.name}: a browser module exports only \`function\` or \`const\``);
  }
  return { dependencies, exported, body: `${body}\nreturn { ${exported.join(", ")} };\n` };
}

/**
 * The page script of `entry`'s module and every module it imports: the entry module's exported
 * function `call` runs once the page has the script.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pageScript } from "./page_script.ts";
 * const script = pageScript([
 *   { name: "kit.ts", source: "export function twice(n: number): number { return 2 * n; }" },
 *   { name: "page.ts", source: 'import { twice } from "./kit.ts";\nexport function draw(): void { twice(2); }' },
 * ], "page.ts", "draw");
 * assert.doesNotThrow(() => new Function(script)()); // runs: plain JavaScript
 * ```
 */
export function pageScript(modules: BrowserModule[], entry: string, call: string): string {
  const byName = new Map(modules.map((m) => [m.name, m]));
  const scopeOf = (name: string) => `module_${name.replace(/\W/g, "_")}`;
  const order: string[] = [];
  const parts = new Map<string, string>();
  const exported = new Map<string, string[]>();
  const visit = (name: string, from: string[]): void => {
    if (parts.has(name)) return;
    if (from.includes(name)) {
      throw new Error(`browser modules import in a cycle: ${from.join(" → ")} → ${name}`);
    }
    const module = byName.get(name);
    if (module === undefined) {
      throw new Error(`${from.at(-1) ?? "the page"} imports ${name}, not a browser module given`);
    }
    const emitted = emit(module, scopeOf);
    exported.set(name, emitted.exported);
    for (const d of emitted.dependencies) visit(d, [...from, name]);
    parts.set(name, `const ${scopeOf(name)} = (function () {\n${emitted.body}})();\n`);
    order.push(name);
  };
  visit(entry, []);
  if (!exported.get(entry)?.includes(call)) {
    throw new Error(`${entry} exports no function ${call} for the page to call`);
  }
  return `(function () {\n"use strict";\n${order.map((n) => parts.get(n)).join("")}${
    scopeOf(entry)
  }.${call}();\n})();\n`;
}
