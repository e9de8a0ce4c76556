import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("deno publish --dry-run passes with no warning: license, exports and types all there", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["publish", "--dry-run", "--allow-dirty"],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, text);
  assert.match(text, /Dry run complete/);
  assert.doesNotMatch(text, /^\s*(warning|error)\b/im, text);
  // The JSR package is the library and the command: no tests, benchmarks or npm launcher.
  assert.doesNotMatch(text, /\/tests\/|\/bench\/|bin\/tailgate\.cjs/);
});
