import assert from "node:assert/strict";
import { RenderAhead, RequestRenderer } from "../../../../runner/engine/render/mod.ts";
import { prepareRequest } from "../../../../runner/engine/http1/http1_request.ts";
import { Schedule } from "../../../../runner/schedule/build_schedule.ts";
import type { ResolvedPlan } from "../../../../runner/plan/types.ts";
import { parseText } from "../../../_helpers/plan_fixtures.ts";
import { TAILGATE_VERSION } from "../../../../runner/version.ts";

const PLAN = `name: r
target: http://127.0.0.1:8080
vars: { n: counter, k: { choice: [a b, "c"] } }
requests:
  - { name: fixed, path: /fixed, weight: 1 }
  - { name: tpl, method: POST, path: "/t/{{n}}?k={{k}}", weight: 1, body: "n={{n}}" }
load:
  stages: [{ rate: 100/s, duration: 1s }]
`;

function setup(plan: ResolvedPlan) {
  const schedule = new Schedule({
    arrival: "constant",
    seed: plan.load.seed,
    stages: plan.load.stages,
    weights: plan.requests.map((r) => r.weight),
  });
  const fixed = plan.requests.map((r, i) => prepareRequest(r, i));
  const source = new RenderAhead(
    new RequestRenderer(plan, []),
    fixed,
    schedule.cursor(),
    0,
  );
  return { schedule, fixed, source };
}

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("render-ahead hands out each templated request in schedule order, the fixed ones as they are", () => {
  const plan = parseText(PLAN).plan!;
  const { schedule, fixed, source } = setup(plan);
  source.fill();
  const cursor = schedule.cursor();
  let templated = 0;
  while (!cursor.done) {
    const r = source.take(cursor.index, cursor.labelIndex);
    if (cursor.labelIndex === 0) assert.equal(r, fixed[0]);
    else {
      templated++;
      const text = decode(r.bytes);
      const k = text.includes("k=a%20b") ? "a%20b" : "c";
      assert.equal(
        text,
        `POST /t/${cursor.index}?k=${k} HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n` +
          `User-Agent: tailgate/${TAILGATE_VERSION}\r\nContent-Length: ${
            `n=${cursor.index}`.length
          }\r\n\r\nn=${cursor.index}`,
      );
      source.release(r, false);
    }
    cursor.advance();
  }
  assert.equal(templated, 50);
  assert.equal(source.late, 0);
});

Deno.test("a request not rendered ahead is rendered when due and counted late, never skipped", () => {
  const plan = parseText(PLAN).plan!;
  const { schedule, source } = setup(plan);
  const cursor = schedule.cursor();
  const sent: number[] = [];
  while (!cursor.done) {
    if (cursor.labelIndex === 1) {
      sent.push(Number(/\/t\/(\d+)/.exec(decode(source.take(cursor.index, 1).bytes))![1]));
    }
    if (sent.length === 3) source.renderAhead(); // the loop catches up
    cursor.advance();
  }
  assert.equal(sent.length, 50);
  assert.deepEqual(sent, [...sent].sort((a, b) => a - b), "in order");
  assert.equal(source.late, 3, "the three before the loop caught up");
});

Deno.test("a completed request's buffer is reused; a failed one's is not (a write may still hold it)", () => {
  const plan = parseText(PLAN).plan!;
  const { schedule, source } = setup(plan);
  const cursor = schedule.cursor();
  while (cursor.labelIndex !== 1) cursor.advance();
  const first = source.take(cursor.index, 1);
  source.release(first, false);
  cursor.advance();
  while (cursor.labelIndex !== 1) cursor.advance();
  const second = source.take(cursor.index, 1);
  assert.equal(second, first, "the pooled object came back");
  source.release(second, true);
  cursor.advance();
  while (cursor.labelIndex !== 1) cursor.advance();
  assert.notEqual(source.take(cursor.index, 1), first);
});

Deno.test("requests that timed out waiting for a connection are passed over: the next one sent is in step", () => {
  const plan = parseText(PLAN).plan!;
  const { schedule, source } = setup(plan);
  source.fill();
  const cursor = schedule.cursor();
  const templated: number[] = [];
  while (!cursor.done) {
    if (cursor.labelIndex === 1) templated.push(cursor.index);
    cursor.advance();
  }
  // Sent: the first two, then (the queue's head timed out) the sixth on.
  for (const n of [templated[0], templated[1], ...templated.slice(5)]) {
    const r = source.take(n, 1);
    assert.match(decode(r.bytes), new RegExp(`^POST /t/${n}\\?`));
    source.release(r, false);
    source.renderAhead();
  }
  assert.equal(source.late, 0, "passing over is not lateness");
});

Deno.test("a template that draws nothing (it reads only a secret) is rendered once, before the run", () => {
  const plan = parseText(
    `name: s
target: http://127.0.0.1:8080
requests: [{ name: s, path: "/t/\${env.TENANT}" }]
load: { stages: [{ rate: 10/s, duration: 1s }] }
`,
    { env: { TENANT: "a b" } },
  ).plan!;
  const renderer = new RequestRenderer(plan, []);
  assert.equal(renderer.drawsValues, false);
  assert.equal(renderer.isTemplated(0), false);
  const fixed = renderer.fixedRequest(0, prepareRequest(plan.requests[0], 0));
  assert.equal(
    decode(fixed.bytes),
    `GET /t/a%20b HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: tailgate/${TAILGATE_VERSION}\r\n\r\n`,
  );
});
