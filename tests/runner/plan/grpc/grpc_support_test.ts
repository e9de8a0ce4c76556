import assert from "node:assert/strict";
import { staticGraph } from "../../../_helpers/static_graph.ts";
import { fileURLToPath } from "node:url";
import { grpcSupport, loadGrpcSupport, loadPlan } from "../../../../runner/plan/mod.ts";
import { GRPC_TESTDATA } from "./_grpc_plan.ts";
import { join } from "node:path";

Deno.test("importing the plan layer evaluates no protobufjs: an HTTP run never pays for it", async () => {
  const mod = fileURLToPath(new URL("../../../../runner/plan/mod.ts", import.meta.url));
  const graph = await staticGraph(mod);
  assert.ok(graph.some((s) => s.endsWith("/runner/plan/grpc/grpc_support.ts")));
  assert.deepEqual(
    graph.filter((s) => /protobufjs|_protobuf\.ts|runner\/protobuf\/|grpc_tools\.ts/.test(s)),
    [],
  );
});

Deno.test("loadPlan loads gRPC support for a plan that names grpc, and only then", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const http = join(dir, "http.yaml");
    await Deno.writeTextFile(
      http,
      "name: h\ntarget: http://127.0.0.1:8080\nrequests: [{ path: / }]\n" +
        "load: { stages: [{ rate: 1/s, duration: 1s }] }\n",
    );
    assert.ok((await loadPlan(http, { requireEnv: false })).plan);
    assert.equal(grpcSupport(), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const parse = await loadPlan(
    join(GRPC_TESTDATA, "..", "..", "..", "plans/examples/grpc/greeter.yaml"),
    {
      requireEnv: false,
    },
  );
  assert.ok(parse.plan?.grpc);
  assert.equal(grpcSupport(), await loadGrpcSupport());
});
