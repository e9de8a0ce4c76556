/**
 * `tailgate run` of gRPC plans against grpc-go's greeter_server, a server nobody here wrote
 * (built by .ci/install-tools; ignored with a note where it is not): the example plan and
 * the ad-hoc form ghz users type. The server logs each call it received: its count equals
 * tailgate's, call for call.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../../../cli.ts";
import { capture } from "../../_helpers/cli_capture.ts";
import { freePort } from "../../_helpers/free_port.ts";
import { grpcExample, startExample } from "../../_helpers/grpc_server.ts";
import { ignoreWithoutGrpcTools } from "../../_helpers/grpc_tools.ts";
import { readRunResult } from "../../../runner/result/read_run_result.ts";

const ignore = ignoreWithoutGrpcTools("greeter_server");
const EXAMPLE = new URL("../../../plans/examples/grpc/", import.meta.url);

/** The names greeter_server logged (`Received: <name>`), one per call. */
function received(log: string): string[] {
  return [...log.matchAll(/Received: (\S+)/g)].map((m) => m[1]);
}

Deno.test({
  name: "the issue's greeter plan runs against grpc-go's greeter: every call OK, counted alike",
  ignore,
  async fn() {
    await using greeter = await startExample(grpcExample("greeter_server")!, freePort());
    const dir = await Deno.makeTempDir();
    try {
      const io = capture();
      const code = await main([
        "run",
        join(EXAMPLE.pathname, "greeter.yaml"),
        ...["--target", greeter.origin.replace("http://", "grpc://")],
        ...["--duration-scale", "0.1", "--rate-scale", "0.5"],
        ...["--out", join(dir, "out"), "--no-baseline", "--confirm", "0"],
      ], io);
      const read = readRunResult(await Deno.readTextFile(join(dir, "out", "result.json")));
      assert.ok(read.ok);
      const counts = read.value.stages[0].counts;
      assert.equal(counts.scheduled, 500, io.err.join("\n"));
      assert.deepEqual(counts.statusCodes, { OK: 500 });
      assert.ok(code === 0 || code === 3, `exit ${code}: ${io.err.join("\n")}`);
      const names = received(greeter.log());
      assert.equal(names.length, 500, "the server received each call once");
      assert.equal(new Set(names).size, 500, "each with its own rendered name");
      assert.match(io.out.join("\n"), /protocol: gRPC over h2c/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "an ad-hoc gRPC run as ghz users type it: URL with the method, --proto and -d",
  ignore,
  async fn() {
    await using greeter = await startExample(grpcExample("greeter_server")!, freePort());
    const dir = await Deno.makeTempDir();
    const cwd = Deno.cwd();
    try {
      await Deno.copyFile(
        join(EXAMPLE.pathname, "protos", "helloworld.proto"),
        join(dir, "helloworld.proto"),
      );
      Deno.chdir(dir);
      const io = capture();
      const origin = greeter.origin.replace("http://", "grpc://");
      const code = await main([
        "run",
        `${origin}/helloworld.Greeter/SayHello`,
        ...["--proto", "helloworld.proto", "-d", '{"name":"adhoc"}'],
        ...["--rate", "100/s", "--duration", "1s", "--connections", "2"],
        ...["--out", "out", "--no-baseline"],
      ], io);
      assert.equal(code, 0, io.err.join("\n"));
      const read = readRunResult(await Deno.readTextFile(join(dir, "out", "result.json")));
      assert.ok(read.ok);
      assert.deepEqual(read.value.stages[0].counts.statusCodes, { OK: 100 });
      assert.deepEqual(received(greeter.log()), Array(100).fill("adhoc"));
    } finally {
      Deno.chdir(cwd);
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("--target grpc:// is for a gRPC plan: an HTTP plan is refused before anything is sent", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const plan = join(dir, "http.yaml");
    await Deno.writeTextFile(
      plan,
      "name: h\ntarget: http://127.0.0.1:1\nrequests: [{ path: / }]\n" +
        "load: { stages: [{ rate: 1/s, duration: 1s }] }\n",
    );
    const io = capture();
    const code = await main([
      "run",
      plan,
      "--target",
      "grpc://127.0.0.1:2",
      "--out",
      join(dir, "o"),
    ], io);
    assert.equal(code, 2);
    assert.deepEqual(io.err, [
      `tailgate run: --target grpc://127.0.0.1:2: ${plan} sends HTTP requests, not gRPC calls; ` +
      "give an http(s) URL",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
