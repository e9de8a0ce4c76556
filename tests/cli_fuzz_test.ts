/**
 * The terminal's output fuzzer: random hostile plan file names, plan names, stage names, labels
 * and keys (line breaks, `::` and `##[` marks, `%` escapes, leading whitespace, Unicode
 * separators, zero-width and control characters) go through `tailgate check`, and hostile ad-hoc
 * arguments (the URL, a header, an SLO, the method) through `tailgate run URL --print-plan` and
 * one real ad-hoc run, all by the public `main()`. Every line printed must be one no GitHub runner
 * reads as a workflow command (tests/_helpers/runner_commands.ts) and must hold no raw control
 * character. Bounded in count and time; `TAILGATE_FUZZ_SEED` replays a seed, which every failure
 * names.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../cli.ts";
import { startTarget } from "../mod.ts";
import { printable } from "../runner/plan/printable.ts";
import { capture } from "./_helpers/cli_capture.ts";
import { hostileText, yamlQuoted } from "./_helpers/hostile_text.ts";
import { commandLines } from "./_helpers/runner_commands.ts";
import { mulberry32 } from "./_helpers/seeded_random.ts";

const MAX_CASES = 300;
const MAX_TOTAL_MS = 15_000;
/** What may not reach the terminal raw: what `printable()` escapes, or only control characters. */
type Raw = "unprintable" | "control";

/** Checks everything `main()` printed; `where` names the case in every failure. */
function checkPrinted(io: { out: string[]; err: string[] }, raw: Raw, where: string): void {
  const printed = [...io.out, ...io.err];
  assert.deepEqual(commandLines(printed), [], `a workflow command at ${where}`);
  for (const text of printed) {
    // `\n` only separates lines.
    const found = [...text].find((c) => {
      const code = c.codePointAt(0)!;
      const control = c !== "\n" && (code < 0x20 || (code >= 0x7f && code <= 0x9f));
      return control || (raw === "unprintable" && c !== "\n" && printable(c) !== c);
    });
    assert.equal(found, undefined, `a raw ${JSON.stringify(found)} at ${where}: ${text}`);
  }
}

/** `tailgate run` arguments for an ad-hoc run with one hostile value among them. */
function adhocArgs(base: string, hostile: string, next: () => number): string[] {
  const args = [`${base}/a`, "--rate", "20/s", "--duration", "1100ms", "-H", "X-A: b"];
  switch (Math.floor(next() * 5)) {
    case 0:
      args[0] = `${base}/${hostile}`;
      break;
    case 1:
      args[0] = `${base}/a?q=${hostile}`;
      break;
    case 2:
      args[6] = `X-A: ${hostile}`;
      break;
    case 3:
      args.push("--slo", `p99 < 5ms${hostile}`);
      break;
    default:
      args.push("--method", hostile);
  }
  return args;
}

Deno.test("hostile plan files and ad-hoc arguments print no workflow command and no raw control character", async () => {
  await using target = await startTarget({ mode: "fixed", delayMs: 1, port: 0 });
  const base = target.url.replace(/\/$/, "");
  const seed = Number(Deno.env.get("TAILGATE_FUZZ_SEED") ?? 20261126);
  const next = mulberry32(seed);
  const dir = await Deno.makeTempDir({ prefix: "tailgate-cli-fuzz-" });
  const startedMs = performance.now();
  let cases = 0;
  try {
    for (; cases < MAX_CASES && performance.now() - startedMs < MAX_TOTAL_MS; cases++) {
      const io = capture();
      if (cases % 2 === 0) {
        const [file, plan, stage, label, key] = [0, 1, 2, 3, 4].map(() => hostileText(next));
        const path = join(dir, `${cases}${file}.yaml`);
        const where = `seed ${seed}, case ${cases}: ${
          JSON.stringify({ file, plan, stage, label, key })
        }`;
        await Deno.writeTextFile(
          path,
          `name: ${yamlQuoted(plan)}\ntarget: ${base}\n` +
            `requests: [{ name: ${yamlQuoted(label)}, path: / }]\n` +
            `load:\n  stages:\n    - { name: ${yamlQuoted(stage)}, rate: 20/s, duration: 1sec }\n` +
            `${yamlQuoted(key)}: 1\n`,
        );
        await main(["check", path], io);
        checkPrinted(io, "unprintable", where);
      } else {
        const args = adhocArgs(base, hostileText(next), next);
        const where = `seed ${seed}, case ${cases}: ${JSON.stringify(args)}`;
        // The printed plan is a plan to save: its text keeps what YAML allows raw.
        await main(["run", ...args, "--print-plan"], io);
        checkPrinted(io, "control", where);
      }
    }
    // One ad-hoc run for real: its name, label and progress carry the hostile path.
    const io = capture();
    const hostile = "::error::x ##[warning]y%0A";
    const args = [`${base}/${hostile}`, "--rate", "20/s", "--duration", "1100ms"];
    await main(["run", ...args, "-H", `X-A: ${hostile}`, "--out", join(dir, "out")], io);
    assert.match(io.out.join("\n"), /^ad-hoc GET [\d.:]+\/::error::x/, io.out.join("\n"));
    checkPrinted(io, "unprintable", `seed ${seed}, the real run: ${JSON.stringify(args)}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  assert.ok(cases >= 100, `only ${cases} cases in ${MAX_TOTAL_MS} ms`);
});
