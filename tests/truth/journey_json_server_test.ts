/**
 * The journey proof against a server nobody here wrote: json-server-auth (npm) started by
 * `tailgate run --start`, the plan of docs/plan.md's worked example (plans/examples/json_server/).
 * Setup registers and logs in once; each journey creates an item with a fresh uuid, reads it back
 * by the id the server gave it, and pays it. The server's own request log and its database file
 * must agree with tailgate: every created id read back and paid exactly once, never before its
 * create, and each step's count in result.json equal to the server's.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../../cli.ts";
import { capture } from "../_helpers/cli_capture.ts";
import { freePort } from "../_helpers/free_port.ts";
import {
  ignoreWithoutJsonServer,
  jsonServerAuthBin,
  type LoggedRequest,
  loggedRequests,
} from "../_helpers/json_server.ts";

const EXAMPLE = new URL("../../plans/examples/json_server/", import.meta.url).pathname;

interface Label {
  label: string;
  counts: { scheduled: number; sent: number; ok: number; completed: number };
  checks: { text: string; evaluated: number; failed: number }[];
}

Deno.test({
  name:
    "journeys against json-server-auth: each id read and paid once, after its create; counts equal",
  ignore: ignoreWithoutJsonServer(),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "tailgate-journey-" });
    try {
      for (const f of ["plan.yaml", "db.json", "routes.json"]) {
        await Deno.copyFile(join(EXAMPLE, f), join(dir, f));
      }
      const port = freePort();
      const url = `http://127.0.0.1:${port}`;
      const start = `cd '${dir}' && exec '${jsonServerAuthBin()}' db.json --routes routes.json ` +
        `--port ${port} --host 127.0.0.1`;
      const out = join(dir, "out");
      const io = capture();
      // 40 journeys a second for 15 s: 600 journeys, 1,800 requests.
      const code = await main([
        "run",
        join(dir, "plan.yaml"),
        ...["--target", url, "--start", start, "--ready", `${url}/health`],
        ...["--rate-scale", "2", "--duration-scale", "0.5", "--seed", "44"],
        ...["--out", out, "--no-baseline", "--no-color"],
      ], io);
      const printed = [...io.err, ...io.out].join("\n");
      assert.equal(code, 0, printed);
      const result = JSON.parse(await Deno.readTextFile(join(out, "result.json")));
      const log = loggedRequests(await Deno.readTextFile(join(out, "service.log")));
      const db = JSON.parse(await Deno.readTextFile(join(dir, "db.json")));

      // Setup: one registration and one login, whatever the load; beside them only the
      // readiness checks.
      const others = log.filter((r) => !r.path.startsWith("/660/") && r.path !== "/health");
      assert.deepEqual(others.map((r) => `${r.method} ${r.path} ${r.status}`), [
        "POST /register 201",
        "POST /login 200",
      ], printed);

      const creates = log.filter((r) => r.method === "POST" && r.path === "/660/items");
      const reads = log.filter((r) => r.method === "GET" && r.path.startsWith("/660/items/"));
      const pays = log.filter((r) => r.method === "PATCH" && r.path.startsWith("/660/items/"));
      const journeys = 600;
      assert.equal(creates.length, journeys, printed);
      assert.ok(creates.every((r) => r.status === 201));
      assert.ok([...reads, ...pays].every((r) => r.status === 200));

      // Every id the server gave was read back once and paid once, never before its create
      // (ids count up from 1 in create order) and never paid before it was read.
      const id = (r: LoggedRequest) => Number(r.path.slice("/660/items/".length));
      const once = (rs: LoggedRequest[]) => new Set(rs.map(id)).size === rs.length;
      assert.ok(once(reads), "an id was read twice");
      assert.ok(once(pays), "an id was paid twice");
      const ids = db.items.map((i: { id: number }) => i.id).sort((a: number, b: number) => a - b);
      assert.deepEqual(reads.map(id).sort((a, b) => a - b), ids);
      assert.deepEqual(pays.map(id).sort((a, b) => a - b), ids);
      let created = 0;
      const read = new Set<number>();
      for (const r of log) {
        if (r.method === "POST" && r.path === "/660/items") created++;
        else if (r.method === "GET" && r.path.startsWith("/660/items/")) {
          assert.ok(id(r) <= created, `GET ${r.path} logged before its create`);
          read.add(id(r));
        } else if (r.method === "PATCH") assert.ok(read.has(id(r)), `${r.path} paid unread`);
      }
      // The database: one item per journey, each paid, each with its own uuid.
      assert.equal(db.items.length, journeys);
      assert.ok(db.items.every((i: { state: string }) => i.state === "paid"));
      assert.equal(new Set(db.items.map((i: { ref: string }) => i.ref)).size, journeys);

      // tailgate's counts per step are the server's.
      const stage = result.stages.at(-1);
      const step = (name: string) =>
        stage.labels.find((l: Label) => l.label === `order / ${name}`) as Label;
      for (const [name, seen] of [["create", creates], ["read", reads], ["pay", pays]] as const) {
        assert.equal(step(name).counts.sent, seen.length, name);
        assert.equal(step(name).counts.ok, seen.length, name);
        // Each of the step's checks was evaluated on every response, and none failed.
        for (const check of step(name).checks) {
          assert.deepEqual([check.evaluated, check.failed], [seen.length, 0], check.text);
        }
      }
      // The journeys: every one started completed, none skipped a step, each thought 20 ms.
      const [order] = stage.journeys;
      assert.deepEqual([order.started, order.completed, order.failed], [journeys, journeys, 0]);
      assert.deepEqual(order.steps.map((s: { skipped: number }) => s.skipped), [0, 0, 0]);
      assert.ok(order.thinkMs >= 20 * journeys - 1, `think ${order.thinkMs} ms`);
      assert.equal(order.journey.count, journeys);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
