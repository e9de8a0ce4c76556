import assert from "node:assert/strict";
import {
  checkReachable,
  descriptorProblem,
  openFilesLimit,
} from "../../../runner/engine/preflight.ts";

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

Deno.test("descriptorProblem() refuses more connections than the open-files limit leaves room for", () => {
  assert.equal(descriptorProblem(50, 1024), undefined);
  assert.equal(descriptorProblem(960, 1024), undefined, "exactly fits beside the reserve");
  assert.equal(descriptorProblem(100_000, undefined), undefined, "unknown limit: no opinion");
  const tooMany = descriptorProblem(100_000, 1024);
  assert.match(tooMany ?? "", /up to 100000 connections .* only 1024 \(ulimit -n\)/);
  assert.match(tooMany ?? "", /ulimit -n 100064\) or lower max_connections to 960 or fewer/);
  // Below the reserve itself there is no max_connections to suggest, only a higher limit.
  const tiny = descriptorProblem(40, 64);
  assert.match(tiny ?? "", /ulimit -n 104\)$/);
});

Deno.test("openFilesLimit() reads this process's soft limit where /proc tells it", async () => {
  const limit = await openFilesLimit();
  if (Deno.build.os !== "linux") return;
  assert.ok(limit === undefined || (Number.isInteger(limit) && limit > 0), String(limit));
});
