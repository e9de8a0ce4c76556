import assert from "node:assert/strict";
import { type BrowserModule, pageScript } from "../../../reporters/browser/page_script.ts";

const KIT: BrowserModule = {
  name: "kit.ts",
  source: `import type { Unused } from "../elsewhere.ts";
export const SCALE: number = 10;
export function scaled(n: number): number {
  return SCALE * n;
}
function hidden(): string {
  return "kit";
}
`,
};
const PAGE: BrowserModule = {
  name: "page.ts",
  source: `import { scaled, SCALE as scale } from "./kit.ts";
interface Out { value: number }
declare const out: Out[];
function hidden(): string {
  return "page";
}
export function draw(): void {
  out.push({ value: scaled(2) + scale }, { value: hidden().length });
}
`,
};

/** Runs a page script with `out` as its one global; returns what it pushed. */
function run(script: string): Array<{ value: number }> {
  const out: Array<{ value: number }> = [];
  new Function("out", script)(out);
  return out;
}

Deno.test("pageScript() strips the types and runs the entry with its imports bound", () => {
  const script = pageScript([PAGE, KIT], "page.ts", "draw");
  assert.deepEqual(run(script), [{ value: 30 }, { value: 4 }]);
  assert.ok(!/:\s*(number|string|void)\b|interface|declare/.test(script), script);
});

Deno.test("pageScript() gives each module its own scope, dependencies first, no global", () => {
  const script = pageScript([PAGE, KIT], "page.ts", "draw");
  // Both modules declare `hidden`; the page's own is the one it calls ("page".length).
  assert.equal(run(script)[1].value, 4);
  assert.ok(script.indexOf("SCALE = 10") < script.indexOf("function draw"));
  assert.ok(script.startsWith('(function () {\n"use strict";'));
  assert.ok(script.trimEnd().endsWith("})();"));
});

Deno.test("pageScript() emits only the modules the entry reaches", () => {
  const script = pageScript([KIT, PAGE], "kit.ts", "scaled");
  assert.ok(!script.includes("function draw"));
});

Deno.test("pageScript() refuses what it cannot bind: unknown module, other import or export forms", () => {
  assert.throws(() => pageScript([PAGE], "page.ts", "draw"), /page\.ts imports kit\.ts/);
  const star = { name: "star.ts", source: `import * as kit from "./kit.ts";\nkit;\n` };
  assert.throws(
    () => pageScript([star, KIT], "star.ts", "x"),
    /star\.ts: a browser module imports/,
  );
  const reexport = { name: "re.ts", source: `export { scaled } from "./kit.ts";\n` };
  assert.throws(
    () => pageScript([reexport, KIT], "re.ts", "x"),
    /re\.ts: a browser module exports/,
  );
  const a = { name: "a.ts", source: `import { b } from "./b.ts";\nexport function a() {}\n` };
  const b = { name: "b.ts", source: `import { a } from "./a.ts";\nexport function b() {}\n` };
  assert.throws(() => pageScript([a, b], "a.ts", "a"), /cycle: a\.ts → b\.ts → a\.ts/);
  assert.throws(
    () => pageScript([PAGE, KIT], "page.ts", "hidden"),
    /page\.ts exports no function hidden/,
  );
});

Deno.test("pageScript() refuses TypeScript that is not erasable", () => {
  const enumModule = { name: "e.ts", source: "export enum E { A }\n" };
  assert.throws(() => pageScript([enumModule], "e.ts", "x"));
});
