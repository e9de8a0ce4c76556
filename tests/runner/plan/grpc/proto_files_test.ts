import assert from "node:assert/strict";
import { join } from "node:path";
import { PlanReader, type YamlNode } from "../../../../runner/plan/read/mod.ts";
import { loadGrpcSupport } from "../../../../runner/plan/mod.ts";
import type { PlanContext } from "../../../../runner/plan/plan_context.ts";
import { GRPC_TESTDATA } from "./_grpc_plan.ts";

const AT: YamlNode = {
  kind: "scalar",
  pos: { line: 3, col: 17 },
  offset: 0,
  value: "x",
  contentOffset: 0,
  quoted: false,
  length: 1,
};

/** The real files of tests/testdata/grpc/, read as the plan's context reads them. */
function context(planDir = GRPC_TESTDATA): PlanContext {
  const size = (path: string) => {
    try {
      const info = Deno.statSync(path);
      return info.isFile ? info.size : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    env: () => undefined,
    fileSize: size,
    readFile: (path, maxBytes) =>
      (size(path) ?? Infinity) <= maxBytes ? Deno.readFileSync(path) : undefined,
    planDir,
    isFolder: (path) => {
      try {
        return Deno.statSync(path).isDirectory;
      } catch {
        return false;
      }
    },
    requireEnv: true,
  };
}

async function read(files: string[], importPaths: string[] = [], ctx = context()) {
  const { readProtoFiles } = await loadGrpcSupport();
  const reader = new PlanReader("t.yaml");
  const schema = readProtoFiles(
    reader,
    files.map((text, i) => ({ text, node: AT, path: `grpc.proto[${i}]` })),
    importPaths.map((text, i) => ({ text, node: AT, path: `grpc.import_paths[${i}]` })),
    ctx,
  );
  return { schema, errors: reader.issues.map((i) => `${i.path}: ${i.message} (${i.hint})`) };
}

Deno.test("a .proto's imports are found beside it, well-known types are built in", async () => {
  const { schema, errors } = await read(["shop/shop.proto"]);
  assert.deepEqual(errors, []);
  assert.deepEqual(schema!.files, ["shop/shop.proto"]);
  assert.deepEqual(schema!.services.map((s) => [s.fullName, s.methods.map((m) => m.name)]), [
    ["shop.v1.Orders", ["Place", "Watch"]],
  ]);
  assert.equal(schema!.services[0].methods[1].responseStream, true);
});

Deno.test("several .proto files make one schema; imports are found through import_paths", async () => {
  const ctx = context();
  const { schema, errors } = await read(["helloworld.proto", "route_guide.proto"], [], ctx);
  assert.deepEqual(errors, []);
  assert.deepEqual(schema!.services.map((s) => s.fullName), [
    "helloworld.Greeter",
    "routeguide.RouteGuide",
  ]);
  // money.proto imported by a file in another folder, found by the import path.
  const dir = await Deno.makeTempDir({ dir: GRPC_TESTDATA });
  try {
    await Deno.writeTextFile(
      join(dir, "uses.proto"),
      'syntax = "proto3";\npackage uses;\nimport "money.proto";\nmessage U { common.Money m = 1; }\n',
    );
    const rel = dir.slice(GRPC_TESTDATA.length);
    const without = await read([`${rel}/uses.proto`]);
    assert.match(without.errors[0], /imports `money.proto`, which is not found \(put it beside/);
    const found = await read([`${rel}/uses.proto`], ["shop/common"]);
    assert.deepEqual(found.errors, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parse errors, missing imports, unresolved types and files outside are located", async () => {
  const broken = await read(["broken.proto"]);
  assert.equal(broken.schema, undefined);
  assert.match(broken.errors[0], /^grpc\.proto\[0\]: `broken\.proto`: illegal .*line 5/);
  const missing = await read(["bad_import.proto"]);
  assert.deepEqual(missing.errors, [
    "grpc.proto[0]: `bad_import.proto` imports `nowhere/gone.proto`, which is not found (put it " +
    "beside the file that imports it, or name its folder in `grpc.import_paths`)",
  ]);
  const unresolved = await read(["unresolved.proto"]);
  assert.match(
    unresolved.errors[0],
    /^grpc\.proto: the \.proto files do not resolve: no such type.*Missing/i,
  );
  const outside = await read(
    ["../grpc/helloworld.proto"],
    [],
    context(join(GRPC_TESTDATA, "shop")),
  );
  assert.match(
    outside.errors[0],
    /proto file `\.\.\/grpc\/helloworld\.proto` lies outside the plan's folder/,
  );
  const notProto = await read(["shop"]);
  assert.match(notProto.errors[0], /`shop` is not a \.proto file/);
  const gone = await read(["gone.proto"]);
  assert.match(gone.errors[0], /proto file `gone\.proto` does not exist/);
});
