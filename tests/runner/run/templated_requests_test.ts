import assert from "node:assert/strict";
import { runWorkers } from "../../../runner/run/run_workers.ts";
import { loadPlan } from "../../../runner/plan/load_plan.ts";
import type { ResolvedPlan } from "../../../runner/plan/types.ts";
import {
  headerOf,
  type RecordedRequest,
  recordingServer,
} from "../../_helpers/recording_server.ts";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Writes `files` and the plan into a temporary folder and loads it against `url`. */
async function planIn(
  text: string,
  url: string,
  files: Record<string, string>,
): Promise<ResolvedPlan> {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-templates-" });
  for (const [name, content] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/${name}`, content);
  }
  await Deno.writeTextFile(`${dir}/plan.yaml`, text.replace("TARGET", url));
  const { plan, issues } = await loadPlan(`${dir}/plan.yaml`, { requireEnv: true });
  assert.ok(plan, issues.map((i) => `${i.line}:${i.col} ${i.message}`).join("\n"));
  return plan;
}

const users = (rows: number) =>
  "id,name\n" + Array.from({ length: rows }, (_, i) => `u${i},"name ${i}, jr"`).join("\n") + "\n";

const PLAN = `name: templated
target: TARGET
data:
  users: { file: users.csv }
vars:
  order_id: uuid
  qty: { int: [1, 20] }
  n: counter
  region: { choice: [eu, us, ap] }
requests:
  - name: get user
    path: /users/{{users.id}}?region={{region}}&who={{users.name}}
    headers: { X-Request-Id: "{{order_id}}", X-N: "{{n}}" }
  - name: create order
    method: POST
    path: /orders
    weight: 2
    body: { json: { id: "{{order_id}}", user: "{{users.name}}", qty: "{{qty}}", n: "{{n}}" } }
load:
  connections: 1
  seed: SEED
  stages: [{ rate: 200/s, duration: 1s }]
`;

/** What each request carries, whichever label it has. */
function fieldsOf(r: RecordedRequest) {
  if (r.method === "GET") {
    const url = new URL(r.target, "http://x");
    return {
      user: url.pathname.slice("/users/".length),
      name: url.searchParams.get("who")!,
      id: headerOf(r, "x-request-id")!,
      n: Number(headerOf(r, "x-n")),
      region: url.searchParams.get("region")!,
    };
  }
  const body = JSON.parse(r.body);
  return { user: undefined, name: body.user, id: body.id, n: body.n, qty: body.qty };
}

async function record(seed: number, io: "deno" | "native" = "deno"): Promise<RecordedRequest[]> {
  await using server = recordingServer();
  const plan = await planIn(PLAN.replace("SEED", String(seed)), server.url, {
    "users.csv": users(30),
  });
  const run = await runWorkers({ plan, io });
  assert.equal(run.complete, true);
  assert.equal(run.rendered?.late, 0, "every request was rendered ahead of its send");
  return [...server.requests];
}

Deno.test("a templated plan sends rows in order once per pass, unique counters and uuids, ints in range", async () => {
  const requests = await record(1);
  assert.equal(requests.length, 200);
  const fields = requests.map(fieldsOf).sort((a, b) => a.n - b.n);
  // Counters: the request's index, each once.
  assert.deepEqual(fields.map((f) => f.n), Array.from({ length: 200 }, (_, i) => i));
  // Uuids: well-formed and unique; one value per request wherever it appears.
  assert.ok(fields.every((f) => UUID_V4.test(f.id)));
  assert.equal(new Set(fields.map((f) => f.id)).size, 200);
  // Every request uses `users`: in request order, rows 0..29, then again (each once per pass).
  fields.forEach((f, i) => assert.equal(f.name, `name ${i % 30}, jr`, `request ${i}`));
  for (const f of fields) {
    if (f.user !== undefined) assert.equal(f.user, `u${f.name.split(" ")[1].replace(",", "")}`);
  }
  // Ints inclusive, choices from the list, the path's value percent-encoded.
  for (const f of fields) {
    if ("qty" in f) assert.ok(Number.isInteger(f.qty) && f.qty >= 1 && f.qty <= 20, `${f.qty}`);
    if ("region" in f) assert.ok(["eu", "us", "ap"].includes(f.region!));
  }
  const get = requests.find((r) => r.method === "GET")!;
  assert.match(get.target, /who=name%20\d+%2C%20jr$/);
  const post = requests.find((r) => r.method === "POST")!;
  assert.equal(
    Number(headerOf(post, "content-length")),
    new TextEncoder().encode(post.body).length,
  );
  assert.equal(
    typeof JSON.parse(post.body).qty,
    "number",
    "a whole-template JSON string keeps the number type",
  );
});

Deno.test("the same seed sends byte-identical requests; another seed sends different ones", async () => {
  const strip = (rs: RecordedRequest[]) =>
    rs.map((r) => `${r.line}\n${r.headers.filter(([k]) => k !== "Host").join("\n")}\n${r.body}`);
  const a = strip(await record(7));
  const b = strip(await record(7));
  assert.deepEqual(a, b);
  const c = strip(await record(8));
  assert.notDeepEqual(c, a);
});

Deno.test("the native I/O path sends the same requests as Deno's sockets", async () => {
  const strip = (rs: RecordedRequest[]) => rs.map((r) => `${r.line} ${r.body}`).sort();
  assert.deepEqual(strip(await record(3, "native")), strip(await record(3, "deno")));
});

Deno.test("4 shards of a sequence source send each row exactly once across the fleet", async () => {
  await using server = recordingServer();
  const text = `name: sharded
target: TARGET
data:
  ids: { file: ids.csv, exhausted: error }
requests:
  - { name: get, path: "/items/{{ids.id}}" }
load:
  connections: 2
  workers: 2
  stages: [{ rate: 400/s, duration: 1s }]
`;
  const ids = "id\n" + Array.from({ length: 400 }, (_, i) => `i${i}`).join("\n") + "\n";
  const plan = await planIn(text, server.url, { "ids.csv": ids });
  const runs = await Promise.all(
    [0, 1, 2, 3].map((index) => runWorkers({ plan, shard: { index, count: 4 } })),
  );
  assert.ok(runs.every((r) => r.complete));
  assert.deepEqual(runs.map((r) => r.rendered!.draws[0]), [100, 100, 100, 100]);
  const sent = server.requests.map((r) => r.target).sort();
  assert.deepEqual(sent, Array.from({ length: 400 }, (_, i) => `/items/i${i}`).sort());
});
