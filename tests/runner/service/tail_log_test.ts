import assert from "node:assert/strict";
import { join } from "node:path";
import { cutLine, TailLog } from "../../../runner/service/tail_log.ts";

/** A fresh temporary folder, removed when the test is done. */
async function tempDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "tailgate-tail-log-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

const bytes = (text: string) => new TextEncoder().encode(text);

/** Writes `chunks` into a log of `maxBytes`; the log's text, the bytes cut, the folder's names. */
async function logOf(chunks: string[], maxBytes: number) {
  await using dir = await tempDir();
  const path = join(dir.path, "service.log");
  const log = await TailLog.create(path, maxBytes);
  for (const chunk of chunks) await log.write(bytes(chunk));
  const cut = await log.close();
  const names = [];
  for await (const e of Deno.readDir(dir.path)) names.push(e.name);
  return { text: await Deno.readTextFile(path), cut, names };
}

Deno.test("a log under its limit holds the output as it came, no line added", async () => {
  const { text, cut, names } = await logOf(["one\n", "two\n"], 100);
  assert.equal(text, "one\ntwo\n");
  assert.equal(cut, 0);
  assert.deepEqual(names, ["service.log"]);
});

Deno.test("a log past its limit keeps the output's last bytes exactly, after a line on the cut", async () => {
  const chunks = Array.from({ length: 50 }, (_, i) => `line ${i}\n`);
  const all = chunks.join("");
  for (const maxBytes of [10, 16, 64, 100, all.length - 1]) {
    const { text, cut, names } = await logOf(chunks, maxBytes);
    assert.equal(cut, all.length - maxBytes, `limit ${maxBytes}`);
    assert.equal(text, cutLine(cut, maxBytes) + all.slice(-maxBytes), `limit ${maxBytes}`);
    assert.deepEqual(names, ["service.log"], "no part left beside it");
  }
});

Deno.test("a chunk longer than the limit keeps only its own tail", async () => {
  const { text, cut } = await logOf(["abc", "0123456789"], 4);
  assert.equal(cut, 9);
  assert.equal(text, cutLine(9, 4) + "6789");
});

Deno.test("while the output runs, the file at the log's name never passes the limit", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "service.log");
  const log = await TailLog.create(path, 32);
  for (let i = 0; i < 40; i++) {
    await log.write(bytes(`${i}:abcdef\n`));
    assert.ok((await Deno.stat(path)).size <= 32);
  }
  assert.equal(log.cutBytes > 0, true);
  await log.close();
});

Deno.test("the line on the cut names the limit in MiB when it is whole MiB", () => {
  assert.match(
    cutLine(5, 1024 * 1024),
    /the first 5 bytes .* were cut; this log keeps its last 1 MiB/,
  );
  assert.match(cutLine(5, 1000), /keeps its last 1000 bytes/);
});
