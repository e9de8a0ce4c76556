import assert from "node:assert/strict";
import { TAILGATE_VERSION } from "../../runner/version.ts";
import { versionText } from "../../runner/cli/commands.ts";
import { main } from "../../cli.ts";
import { capture } from "../_helpers/cli_capture.ts";
import { RESULT_VERSION } from "../../runner/model/run_result.ts";
import { HISTORY_VERSION } from "../../runner/model/history_result.ts";
import denoJson from "../../deno.json" with { type: "json" };

const ROOT = new URL("../../", import.meta.url);

Deno.test("the version is deno.json's, and package.json, --version and the changelog agree", async () => {
  const packageJson = JSON.parse(await Deno.readTextFile(new URL("package.json", ROOT)));
  assert.equal(TAILGATE_VERSION, denoJson.version);
  assert.equal(packageJson.version, denoJson.version, "package.json's version is deno.json's");
  assert.equal(packageJson.license, "Apache-2.0");
  assert.equal(denoJson.license, "Apache-2.0");
  const io = capture();
  assert.equal(await main(["--version"], io), 0);
  const lines = io.out.join("\n").split("\n");
  assert.equal(lines.join("\n"), versionText());
  assert.match(
    lines[0],
    new RegExp(`^tailgate ${denoJson.version.replaceAll(".", "\\.")} \\(deno `),
  );
  assert.match(lines[1], new RegExp(`tailgate/result ${RESULT_VERSION}, tailgate-search \\d+, `));
  assert.match(lines[1], new RegExp(`, tailgate-history ${HISTORY_VERSION}$`));
  const changelog = await Deno.readTextFile(new URL("CHANGELOG.md", ROOT));
  assert.match(changelog, new RegExp(`^## \\[${denoJson.version.replaceAll(".", "\\.")}\\]`, "m"));
  assert.match(await Deno.readTextFile(new URL("LICENSE", ROOT)), /Apache License\s+Version 2\.0/);
});

Deno.test("the launcher runs cli.ts with the V8 flags of the tailgate task and the pinned deno", async () => {
  const launcher = await Deno.readTextFile(new URL("bin/tailgate.cjs", ROOT));
  const packageJson = JSON.parse(await Deno.readTextFile(new URL("package.json", ROOT)));
  // The flags are read from deno.json's task, so they cannot drift; the deno package is pinned.
  assert.match(denoJson.tasks.tailgate, /--v8-flags=\S+/);
  assert.match(launcher, /denoJson\.tasks\.tailgate/);
  assert.match(packageJson.peerDependencies.deno, /^\d+\.\d+\.\d+$/);
  // A peer, which npm (7 and later) installs with the package: as a plain dependency, `deno task`
  // in this repository would run that package's bin for every `deno` of a task.
  assert.ok(!packageJson.dependencies?.deno, "deno is a peer dependency, not a dependency");
  const task = await new Deno.Command(Deno.execPath(), {
    args: ["task", "tailgate", "--version"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(task.code, 0, new TextDecoder().decode(task.stderr));
  const ci = await Deno.readTextFile(new URL(".ci/run", ROOT));
  assert.ok(
    ci.includes(`DENO_VERSION="${packageJson.peerDependencies.deno}"`),
    "CI's deno is the package's",
  );
  assert.equal(packageJson.bin.tailgate, "bin/tailgate.cjs");
  assert.ok(!("scripts" in packageJson), "no install scripts: nothing is downloaded on install");
});
