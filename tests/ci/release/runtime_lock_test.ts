import assert from "node:assert/strict";
import { type DenoLock, runtimeLock, runtimeLockOf } from "../../../ci/release/runtime_lock.ts";

const ROOT = new URL("../../../", import.meta.url);

Deno.test("the committed deno.runtime.lock is deno.lock cut to deno.json's imports", async () => {
  const committed = await Deno.readTextFile(new URL("deno.runtime.lock", ROOT));
  assert.equal(committed, await runtimeLockOf(ROOT), "stale: run `deno task runtime-lock`");
  const lock = JSON.parse(await Deno.readTextFile(new URL("deno.lock", ROOT)));
  const runtime = JSON.parse(committed);
  // The same integrity for every package both lock: one is cut from the other.
  for (const [key, entry] of Object.entries(runtime.npm as DenoLock["npm"] & object)) {
    assert.equal(entry.integrity, lock.npm[key].integrity, key);
  }
  const names = Object.keys(runtime.npm).join(" ");
  assert.doesNotMatch(names, /puppeteer|marked|chromium-bidi|devtools-protocol|zod|yargs/);
});

Deno.test("a scoped package, a peer-suffixed key and an optional dependency are followed", () => {
  const lock: DenoLock = {
    version: "5",
    specifiers: { "npm:@s/a@1.0.0": "1.0.0_p@2.0.0", "npm:tool@1.0.0": "1.0.0" },
    npm: {
      "@s/a@1.0.0_p@2.0.0": { integrity: "a", dependencies: ["p"], optionalDependencies: ["o"] },
      "o@3.0.0": { integrity: "o" },
      "p@2.0.0": { integrity: "p" },
      "tool@1.0.0": { integrity: "t", dependencies: ["z"] },
      "z@1.0.0": { integrity: "z" },
    },
    workspace: { dependencies: ["npm:@s/a@1.0.0", "npm:tool@1.0.0"] },
  };
  const runtime = runtimeLock(lock, { a: "npm:@s/a@1.0.0" });
  assert.deepEqual(Object.keys(runtime.npm!), ["@s/a@1.0.0_p@2.0.0", "o@3.0.0", "p@2.0.0"]);
  assert.deepEqual(runtime.workspace, { dependencies: ["npm:@s/a@1.0.0"] });
  assert.equal(runtime.version, "5");
});

Deno.test("an import deno.lock does not lock yet is named", () => {
  assert.throws(
    () => runtimeLock({ version: "5", specifiers: {}, npm: {} }, { a: "npm:a@1.0.0" }),
    /deno\.lock does not lock npm:a@1\.0\.0/,
  );
});
