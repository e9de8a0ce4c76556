/**
 * The plan fuzzer: random mutations of every shipped plan (characters, lines, numbers, anchors and
 * aliases, YAML's special characters, control characters) go through the whole plan parser. Each
 * must come back as a plan or as located issues: no exception, no issue without a line and column
 * inside the text, and no case over 2 s (a hang guard: the cases take milliseconds). Bounded in
 * count and time. `TAILGATE_FUZZ_SEED` replays a seed; the seed is in every failure message.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseText } from "../../_helpers/plan_fixtures.ts";
import { mulberry32 } from "../../_helpers/seeded_random.ts";

const PLANS_DIR = new URL("../../../plans/", import.meta.url).pathname;
const MAX_CASES = 2_000;
const MAX_TOTAL_MS = 20_000;
const MAX_CASE_MS = 2_000;

/** Every shipped plan's text. */
async function shippedPlans(): Promise<Map<string, string>> {
  const plans = new Map<string, string>();
  for (const dir of [PLANS_DIR, join(PLANS_DIR, "examples")]) {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && entry.name.endsWith(".yaml")) {
        plans.set(entry.name, await Deno.readTextFile(join(dir, entry.name)));
      }
    }
  }
  return plans;
}

const SPECIALS = [
  ":",
  "&a ",
  "*a",
  "[",
  "]",
  "{",
  "}",
  "#",
  "- ",
  "|",
  ">",
  "!",
  "%",
  "@",
  "`",
  '"',
  "'",
  "\n",
  "\t",
  "\u001b[2J",
  "\u0000",
  "${env.X}",
  "::error::",
  "\u202e",
];
const NUMBERS = [
  "0",
  "-1",
  "-0",
  "1e400",
  "9".repeat(400),
  ".inf",
  "-.inf",
  ".nan",
  "0.0000001",
  "1e-400",
  "NaN",
  "100000000000",
  "1.5",
  "0x10",
];

/** One mutant of `text`: one to three random edits. */
function mutate(text: string, next: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  let out = text;
  const edits = 1 + Math.floor(next() * 3);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(next() * (out.length + 1));
    const lines = out.split("\n");
    const line = Math.floor(next() * lines.length);
    switch (Math.floor(next() * 8)) {
      case 0: // delete a few characters
        out = out.slice(0, at) + out.slice(at + 1 + Math.floor(next() * 4));
        break;
      case 1: // insert a special
        out = out.slice(0, at) + pick(SPECIALS) + out.slice(at);
        break;
      case 2: // replace a number
        out = out.replace(/\d+(\.\d+)?/g, (m) => next() < 0.3 ? pick(NUMBERS) : m);
        break;
      case 3: // duplicate a line
        lines.splice(line, 0, lines[line]);
        out = lines.join("\n");
        break;
      case 4: // drop a line
        lines.splice(line, 1);
        out = lines.join("\n");
        break;
      case 5: // swap two lines
        [lines[line], lines[0]] = [lines[0], lines[line]];
        out = lines.join("\n");
        break;
      case 6: // anchor a value and alias it many times (now and then 20,000 times)
        out = out.replace(/: (\S)/, ": &z $1") +
          `\nx-aliases: [${
            Array(next() < 0.04 ? 20_000 : 1 + Math.floor(next() * 500)).fill("*z").join(", ")
          }]\n`;
        break;
      default: // a random character from anywhere in the text
        out = out.slice(0, at) + String.fromCharCode(Math.floor(next() * 128)) + out.slice(at);
    }
  }
  return out;
}

Deno.test("random mutations of every shipped plan are parsed or located, never thrown, never hung", async () => {
  const plans = await shippedPlans();
  assert.ok(plans.size >= 3, `found ${plans.size} shipped plans`);
  const seed = Number(Deno.env.get("TAILGATE_FUZZ_SEED") ?? 20261124);
  const next = mulberry32(seed);
  const texts = [...plans.entries()];
  const startedMs = performance.now();
  let cases = 0;
  let slowest = 0;
  for (; cases < MAX_CASES && performance.now() - startedMs < MAX_TOTAL_MS; cases++) {
    const [name, original] = texts[cases % texts.length];
    const text = mutate(original, next);
    const where = `seed ${seed}, case ${cases} (${name}): ${JSON.stringify(text.slice(0, 2000))}`;
    const caseStartMs = performance.now();
    let parse;
    try {
      parse = parseText(text, { env: { X: "x", API_TOKEN: "t" }, requireEnv: false });
    } catch (e) {
      assert.fail(`threw ${(e as Error).stack} at ${where}`);
    }
    const tookMs = performance.now() - caseStartMs;
    slowest = Math.max(slowest, tookMs);
    assert.ok(tookMs < MAX_CASE_MS, `took ${Math.round(tookMs)} ms at ${where}`);
    const lineCount = text.split("\n").length + 1;
    for (const issue of parse.issues) {
      assert.ok(
        issue.line >= 1 && issue.line <= lineCount && issue.col >= 1,
        `issue at ${issue.line}:${issue.col} (${issue.message}) at ${where}`,
      );
      assert.ok(issue.message.length > 0, `an empty message at ${where}`);
    }
    if (parse.plan === undefined) {
      assert.ok(parse.issues.some((i) => i.severity === "error"), `no plan, no error: ${where}`);
    }
  }
  assert.ok(cases >= 200, `only ${cases} cases in ${MAX_TOTAL_MS} ms (slowest ${slowest} ms)`);
});
