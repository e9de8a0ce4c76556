import assert from "node:assert/strict";
import { join } from "node:path";
import { loadPlan } from "../../../runner/plan/load_plan.ts";
import { MAX_PLAN_BYTES } from "../../../runner/plan/parse_plan.ts";
import { errorsOf, MINIMAL_PLAN } from "../../_helpers/plan_fixtures.ts";

const options = { requireEnv: false, env: () => undefined };
const firstMessage = async (file: string) => (await loadPlan(file, options)).issues[0]?.message;

Deno.test("loadPlan() refuses a device and a pipe without reading them", async () => {
  // /dev/zero would be read without end, a FIFO with no writer would block forever.
  assert.match(
    (await firstMessage("/dev/zero"))!,
    /is not a regular file \(a device, pipe or socket\)/,
  );
  const dir = await Deno.makeTempDir();
  try {
    const fifo = join(dir, "plan.yaml");
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert.ok(made.success);
    assert.match((await firstMessage(fifo))!, /is not a regular file/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadPlan() refuses a plan over the size limit from its size, before reading it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const big = join(dir, "big.yaml");
    // A sparse 350 MB file: refused from its size, never read into memory.
    using f = await Deno.open(big, { write: true, create: true });
    await f.truncate(350 * 1024 * 1024);
    assert.match(
      (await firstMessage(big))!,
      new RegExp(`the file is ${350 * 1024 * 1024} bytes; a plan may be at most ${MAX_PLAN_BYTES}`),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadPlan()'s plans follow symbolic links before confining a body file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/secret`, "s3cret");
    await Deno.mkdir(`${dir}/plans`);
    await Deno.symlink(`${dir}/secret`, `${dir}/plans/body.bin`);
    await Deno.writeTextFile(
      `${dir}/plans/p.yaml`,
      MINIMAL_PLAN.replace(
        "  - path: /\n",
        "  - { method: PUT, path: /c, body: { file: body.bin } }\n",
      ),
    );
    const parse = await loadPlan(`${dir}/plans/p.yaml`, { requireEnv: false });
    assert.equal(parse.plan, undefined);
    assert.match(errorsOf(parse)[0], /body file `body.bin` lies outside the plan's folder/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
