import assert from "node:assert/strict";
import type { ExportTarget } from "../../../runner/plan/mod.ts";
import type { MetricBatch } from "../../../reporters/export/metric_batch.ts";
import {
  exportWarning,
  type ExportWire,
  sendExport,
} from "../../../reporters/export/send_exports.ts";

/** A batch of `n` gauge series named s0, s1, … */
function batch(n: number): MetricBatch {
  return {
    resource: { plan: "p" },
    series: Array.from({ length: n }, (_, i) => ({
      kind: "gauge" as const,
      name: `s${i}`,
      help: "h",
      unit: "1",
      labels: {},
      startMs: 0,
      points: [{ timeMs: 1, value: i }],
    })),
  };
}

/** A wire whose body is the series' names, `fallback:` first when it is the fallback form. */
const wire: ExportWire = {
  url: (t) => `${t.url}/in`,
  headers: { "content-type": "application/x-test" },
  encode: (b, fallback) =>
    new TextEncoder().encode(
      `${fallback ? "fallback:" : ""}${b.series.map((s) => s.name).join(",")}`,
    ),
  refuses: (status, body) => status === 400 && body.includes("native histograms are disabled"),
};

/** A receiver on port 0 answering each request as `answer` says; it records what came. */
function receiver(answer: (n: number, body: string) => Response | Promise<Response>) {
  const seen: Array<{ body: string; headers: Headers }> = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const body = await req.text();
    seen.push({ body, headers: req.headers });
    return answer(seen.length, body);
  });
  const target = (extra: Partial<ExportTarget> = {}): ExportTarget => ({
    kind: "otlp",
    url: `http://127.0.0.1:${server.addr.port}`,
    urlText: `http://127.0.0.1:${server.addr.port}`,
    headers: [],
    ...extra,
  });
  return { seen, target, [Symbol.asyncDispose]: () => server.shutdown() };
}

Deno.test("sendExport sends every series in requests of the chunk size, with the target's headers", async () => {
  await using r = receiver(() => new Response(null, { status: 204 }));
  const target = r.target({
    headers: [{ name: "X-Scope", value: "team-a", template: "team-a", secret: false }],
  });
  const report = await sendExport(batch(5), target, wire, { seriesPerRequest: 2 });
  assert.deepEqual(r.seen.map((s) => s.body), ["s0,s1", "s2,s3", "s4"]);
  assert.equal(r.seen[0].headers.get("x-scope"), "team-a");
  assert.equal(r.seen[0].headers.get("content-type"), "application/x-test");
  assert.deepEqual([report.series, report.delivered, report.requests], [5, 5, 3]);
  assert.equal(exportWarning(report), undefined);
});

Deno.test("sendExport retries a 503 with backoff and delivers; a 400 is not retried", async () => {
  await using r = receiver((n, body) =>
    body === "s0" && n <= 2
      ? new Response("busy", { status: 503 })
      : body === "s1"
      ? new Response("bad series", { status: 400 })
      : new Response(null, { status: 200 })
  );
  const slept: number[] = [];
  const report = await sendExport(batch(3), r.target(), wire, {
    seriesPerRequest: 1,
    sleep: (ms) => (slept.push(ms), Promise.resolve()),
  });
  assert.deepEqual(r.seen.map((s) => s.body), ["s0", "s0", "s0", "s1", "s2"]);
  assert.deepEqual(slept, [500, 1000]);
  assert.equal(report.delivered, 2);
  assert.equal(
    exportWarning(report),
    `export to otlp ${r.target().urlText}: 1 of 3 series not delivered (HTTP 503: busy; HTTP 400: bad series); the verdict stands`,
  );
});

Deno.test("sendExport sends the fallback form from the first refusal on", async () => {
  await using r = receiver((_, body) =>
    body.startsWith("fallback:")
      ? new Response(null, { status: 204 })
      : new Response("native histograms are disabled", { status: 400 })
  );
  const report = await sendExport(batch(2), r.target(), wire, { seriesPerRequest: 1 });
  assert.deepEqual(r.seen.map((s) => s.body), ["s0", "fallback:s0", "fallback:s1"]);
  assert.equal(report.fellBack, true);
  assert.equal(report.delivered, 2);
});

Deno.test("sendExport to a receiver that is down tries a bounded number of times and warns", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const target: ExportTarget = {
    kind: "prometheus",
    url: `http://127.0.0.1:${port}/api/v1/write`,
    urlText: `http://127.0.0.1:${port}/api/v1/write`,
    headers: [],
  };
  const report = await sendExport(batch(3), target, wire, { sleep: () => Promise.resolve() });
  assert.equal(report.delivered, 0);
  assert.equal(report.requests, 3, "one request of 3 series, tried 3 times");
  assert.match(
    exportWarning(report)!,
    /^export to prometheus http:\/\/127\.0\.0\.1:\d+\/api\/v1\/write: 3 of 3 series not delivered \(.+\); the verdict stands$/,
  );
});

Deno.test("sendExport gives a receiver that never answers no more than its deadline", async () => {
  let release!: () => void;
  const held = new Promise<void>((r) => release = r);
  await using r = receiver(async () => (await held, new Response(null)));
  let clock = 0;
  const report = await sendExport(batch(4), r.target(), wire, {
    seriesPerRequest: 1,
    timeoutMs: 50,
    deadlineMs: 1_000,
    now: () => clock,
    sleep: (ms) => (clock += ms, Promise.resolve()),
    fetch: (input, init) => {
      clock += 400; // each request waits out its timeout on the injected clock
      return fetch(input, init);
    },
  });
  release();
  assert.equal(report.delivered, 0);
  assert.ok(report.requests <= 3, `${report.requests} requests in a 1 s budget of 400 ms each`);
  assert.ok(report.reasons.some((w) => /allowed ran out/.test(w)), report.reasons.join("\n"));
  assert.ok(
    report.reasons.some((w) => /no answer within 0\.1 s/.test(w)),
    report.reasons.join("\n"),
  );
});

Deno.test("sendExport never shows a secret URL or header value in its warning", async () => {
  await using r = receiver(() => new Response("token t0ken-value refused", { status: 401 }));
  const base = r.target();
  const target: ExportTarget = {
    ...base,
    url: `${base.url}?key=s3cret-key`,
    urlText: "${env.OTLP_URL}",
    headers: [{
      name: "Authorization",
      value: "Bearer t0ken-value",
      template: "Bearer ${env.TOKEN}",
      secret: true,
    }],
  };
  const secretWire: ExportWire = { ...wire, url: (t) => t.url };
  const report = await sendExport(batch(1), target, secretWire, { secrets: ["t0ken-value"] });
  const warning = exportWarning(report)!;
  assert.doesNotMatch(warning, /s3cret-key|t0ken-value/);
  assert.match(
    warning,
    /^export to otlp \$\{env\.OTLP_URL\}: 1 of 1 series not delivered \(HTTP 401: token \*\*\* refused\)/,
  );
});

Deno.test("sendExport holds no more than its queue bound and says what it left", async () => {
  await using r = receiver(() => new Response(null, { status: 204 }));
  const report = await sendExport(batch(10), r.target(), wire, {
    seriesPerRequest: 2,
    maxQueueBytes: 12,
  });
  assert.equal(r.seen.length, 2, "5 + 5 bytes fit in 12, the third request does not");
  assert.equal(report.delivered, 4);
  assert.match(
    exportWarning(report)!,
    /6 of 10 series not delivered \(not sent: more than 12 bytes to send\)/,
  );
});

Deno.test("sendExport blots a secret before it cuts an answer, however far into it it lies", async () => {
  const token = "glc_" + "k".repeat(36);
  await using r = receiver(() =>
    new Response("x".repeat(280) + ` invalid token ${token}`, { status: 401 })
  );
  const report = await sendExport(batch(1), r.target(), wire, { secrets: [token] });
  const warning = exportWarning(report)!;
  assert.doesNotMatch(warning, /glc_|kkkk/);
});

Deno.test("sendExport reads no more of a refusing answer than its start", async () => {
  await using r = receiver(() => new Response("e".repeat(8 * 1024 * 1024), { status: 400 }));
  const report = await sendExport(batch(1), r.target(), wire);
  assert.equal(report.delivered, 0);
  assert.ok(report.reasons[0].length <= 300, `${report.reasons[0].length} characters`);
});

Deno.test("sendExport sends nothing once the run is stopped, and counts what it left", async () => {
  await using r = receiver(() => new Response(null, { status: 204 }));
  const stop = new AbortController();
  stop.abort();
  const report = await sendExport(
    [batch(2), batch(3)],
    r.target(),
    wire,
    { signal: stop.signal },
  );
  assert.equal(r.seen.length, 0);
  assert.deepEqual([report.series, report.delivered], [5, 0]);
  assert.deepEqual(report.reasons, ["not sent: the run was stopped"]);
});

Deno.test("sendExport asks for each part only once it sent the one before", async () => {
  await using r = receiver(() => new Response(null, { status: 204 }));
  const asked: number[] = [];
  function* parts() {
    for (let i = 0; i < 3; i++) {
      asked.push(r.seen.length);
      yield batch(2);
    }
  }
  const report = await sendExport(parts(), r.target(), wire);
  assert.deepEqual(asked, [0, 1, 2], "part i is made after i requests were answered");
  assert.deepEqual([report.series, report.delivered], [6, 6]);
});
