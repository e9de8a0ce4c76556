/**
 * The codec against a gRPC server nobody here wrote: grpc-go's example greeter_server (built by
 * .ci/install-tools; ignored with a note where it was not built). A node:http2 client, test
 * side only, carries the framed bytes; what the codec frames the server reads, what the server
 * answers the codec decodes.
 */
import assert from "node:assert/strict";
import { connect } from "node:http2";
import { freePort } from "../../../_helpers/free_port.ts";
import { grpcTool, ignoreWithoutGrpcTools } from "../../../_helpers/grpc_tools.ts";
import { GREETER_PLAN, parseGrpc } from "./_grpc_plan.ts";
import { loadGrpcSupport } from "../../../../runner/plan/mod.ts";

const server = grpcTool("greeter_server");
const ignore = ignoreWithoutGrpcTools("greeter_server");

/** One unary call over h2c: the response's DATA bytes and its trailers' grpc-status. */
function call(port: number, path: string, body: Uint8Array) {
  return new Promise<{ data: Uint8Array; status: string | undefined }>((resolve, reject) => {
    const session = connect(`http://127.0.0.1:${port}`);
    session.on("error", reject);
    const stream = session.request({
      ":method": "POST",
      ":path": path,
      "content-type": "application/grpc",
      te: "trailers",
    });
    const chunks: Uint8Array[] = [];
    let status: string | undefined;
    stream.on("response", (headers) => status ??= headers["grpc-status"] as string | undefined);
    stream.on("trailers", (trailers) => status = trailers["grpc-status"] as string | undefined);
    stream.on("data", (chunk: Uint8Array) => chunks.push(new Uint8Array(chunk)));
    stream.on("error", reject);
    stream.on("end", () => {
      session.close();
      const data = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      let at = 0;
      for (const c of chunks) data.set(c, (at += c.length) - c.length);
      resolve({ data, status });
    });
    stream.end(body);
  });
}

Deno.test({
  name: "grpc-go's greeter_server reads the framed HelloRequest; its reply decodes to Hello <name>",
  ignore,
  fn: async () => {
    const { grpcCodec } = await loadGrpcSupport();
    const { plan } = await parseGrpc(GREETER_PLAN);
    const codec = grpcCodec(plan!.grpc!);
    const port = freePort();
    const child = new Deno.Command(server!, {
      args: ["-port", String(port)],
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const log: string[] = [];
    const reading = (async () => {
      for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) log.push(chunk);
    })();
    try {
      for (let i = 0; !log.join("").includes("listening") && i < 100; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const body = codec.frame("helloworld.HelloRequest", '{"name":"user-1"}');
      const reply = await call(port, plan!.requests[0].grpc!.path, body);
      assert.equal(reply.status, "0");
      assert.equal(reply.data[0], 0, "not compressed");
      const length = new DataView(reply.data.buffer).getUint32(1);
      assert.equal(reply.data.length, 5 + length);
      assert.deepEqual(codec.decode("helloworld.HelloReply", reply.data.subarray(5)), {
        message: "Hello user-1",
      });
      const unknown = await call(port, "/helloworld.Greeter/SayHola", body);
      assert.equal(unknown.status, "12", "UNIMPLEMENTED");
      assert.match(log.join(""), /Received: user-1/);
      assert.equal(log.join("").match(/Received:/g)?.length, 1);
    } finally {
      child.kill();
      await child.status;
      await reading;
    }
  },
});
