import assert from "node:assert/strict";
import { checkReachable } from "../../../runner/engine/preflight.ts";

Deno.test("checkReachable() is satisfied by a listening 127.0.0.1 port", async () => {
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepted = listener.accept().then((conn) => conn.close());
  const problem = await checkReachable(new URL(`http://127.0.0.1:${listener.addr.port}/health`));
  assert.equal(problem, undefined);
  await accepted;
});

Deno.test("checkReachable() says a closed port refused the connection", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close(); // nothing listens there now
  const problem = await checkReachable(new URL(`http://127.0.0.1:${port}/`), 1000);
  assert.equal(problem, `http://127.0.0.1:${port} refused the connection: is the target running?`);
});
