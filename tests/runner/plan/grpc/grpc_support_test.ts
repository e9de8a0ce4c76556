import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { grpcSupport, loadGrpcSupport, loadPlan } from "../../../../runner/plan/mod.ts";
import { GRPC_TESTDATA } from "./_grpc_plan.ts";
import { join } from "node:path";

interface InfoModule {
  specifier: string;
  dependencies?: Array<{ code?: { specifier: string }; isDynamic?: boolean; isTypeOnly?: boolean }>;
}

/** The modules a static import of `root` evaluates (`deno info`'s graph, dynamic imports cut). */
async function staticGraph(root: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", root],
    stdout: "piped",
    stderr: "null",
  }).output();
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: InfoModule[] };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const walk = (specifier: string) => {
    if (seen.has(specifier)) return;
    seen.add(specifier);
    for (const d of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (d.isDynamic || d.isTypeOnly || d.code === undefined) continue;
      walk(d.code.specifier);
    }
  };
  walk(info.modules.find((m) => m.specifier.endsWith("/runner/plan/mod.ts"))!.specifier);
  return [...seen];
}

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
