import assert from "node:assert/strict";
import { staticGraph } from "../../_helpers/static_graph.ts";
import { fileURLToPath } from "node:url";
import { exportRun } from "../../../reporters/export/export_run.ts";
import { sampleResult } from "../../_helpers/result_fixtures.ts";

Deno.test("the tailgate command evaluates no protobufjs or snappy until a run exports", async () => {
  const cli = fileURLToPath(new URL("../../../cli.ts", import.meta.url));
  const graph = await staticGraph(cli);
  assert.ok(graph.some((s) => s.endsWith("/reporters/export/export_run.ts")));
  assert.deepEqual(
    graph.filter((s) =>
      /protobufjs|snappyjs|runner\/protobuf\/|remote_write\.ts|otlp_metrics\.ts/.test(s)
    ),
    [],
  );
});

Deno.test("exportRun with no receivers sends nothing and says nothing", async () => {
  assert.deepEqual(await exportRun(sampleResult(), []), { sent: [], warnings: [], reports: [] });
});

Deno.test("exportRun speaks each receiver's format and names each that took everything", async () => {
  const seen: Array<
    { path: string; type: string | null; encoding: string | null; agent: string | null }
  > = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    await req.arrayBuffer();
    seen.push({
      path: new URL(req.url).pathname,
      type: req.headers.get("content-type"),
      encoding: req.headers.get("content-encoding"),
      agent: req.headers.get("user-agent"),
    });
    return new Response(null, { status: 204 });
  });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const result = sampleResult();
    const exported = await exportRun(result, [
      {
        kind: "prometheus",
        url: `${base}/api/v1/write`,
        urlText: `${base}/api/v1/write`,
        headers: [],
      },
      { kind: "otlp", url: base, urlText: base, headers: [] },
    ]);
    assert.deepEqual(exported.warnings, []);
    assert.equal(exported.sent.length, 2);
    assert.match(
      exported.sent[0],
      /^exported \d+ series to prometheus http:\/\/127\.0\.0\.1:\d+\/api\/v1\/write$/,
    );
    assert.match(exported.sent[1], /^exported \d+ series to otlp http:\/\/127\.0\.0\.1:\d+$/);
    const prom = seen.find((s) => s.path === "/api/v1/write")!;
    assert.deepEqual([prom.type, prom.encoding], ["application/x-protobuf", "snappy"]);
    const otlp = seen.find((s) => s.path === "/v1/metrics")!;
    assert.equal(otlp.type, "application/x-protobuf");
    assert.ok(seen.every((s) => s.agent === `tailgate/${result.environment.tailgateVersion}`));
  } finally {
    await server.shutdown();
  }
});
