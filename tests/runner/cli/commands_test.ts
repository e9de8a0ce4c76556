import assert from "node:assert/strict";
import { join } from "node:path";
import { docsLocation, helpText } from "../../../runner/cli/commands.ts";

Deno.test("the help points to a docs folder by its full path, and each file it names is there", async () => {
  const help = helpText().replaceAll("\n", " ");
  const m = /Docs: ((?:[\w-]+\.md, )*[\w-]+\.md) in (\S+)$/.exec(help);
  assert.ok(m, help);
  const [, names, where] = m;
  assert.equal(where, docsLocation());
  assert.ok(where.startsWith("/"), `${where} is a full path, not one relative to a checkout`);
  for (const name of names.split(", ")) {
    assert.ok((await Deno.stat(join(where, name))).isFile, `${where}${name}`);
  }
});

Deno.test("the npm package ships the docs folder the help points to", async () => {
  const pkg = JSON.parse(
    await Deno.readTextFile(new URL("../../../package.json", import.meta.url)),
  );
  assert.ok(pkg.files.includes("docs/*.md"), pkg.files.join(", "));
});
