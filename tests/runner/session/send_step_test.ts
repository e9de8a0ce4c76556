import assert from "node:assert/strict";
import { type BoundStep, sendStep } from "../../../runner/session/mod.ts";
import { problemText } from "../../../runner/model/result.ts";
import { parseText } from "../../_helpers/plan_fixtures.ts";
import {
  type CertPair,
  expiredSelfSigned,
  selfSignedCaTrue,
} from "../../_helpers/openssl_certs.ts";

/** The plan's one setup step: `GET url`. */
function step(url: string): BoundStep {
  const { plan, issues } = parseText(`name: steps
target: ${new URL(url).origin}
setup: [{ name: login, url: ${url} }]
requests: [{ path: / }]
load: { stages: [{ rate: 1/s, duration: 1s }] }
`);
  assert.ok(plan?.setup, JSON.stringify(issues));
  return plan.setup[0];
}

/** What sending a step to an https server presenting `pair`, trusting it, came to. */
async function sentTo(pair: CertPair): Promise<string> {
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {}, ...pair },
    () => new Response("ok"),
  );
  const exchange = await sendStep(step(`https://127.0.0.1:${server.addr.port}/login`), {
    caCerts: [pair.cert],
  });
  assert.ok(!exchange.ok, "the step was answered");
  return problemText(exchange.problems[0]);
}

Deno.test("sendStep() names a CA:TRUE server certificate Deno's TLS refuses, and the fix", async () => {
  assert.equal(
    await sentTo(await selfSignedCaTrue()),
    "the server's certificate is a CA certificate (basicConstraints CA:TRUE, as `openssl req " +
      "-x509` makes it unless told otherwise) presented as its own, which Deno's TLS (rustls) " +
      "refuses even when --ca-cert trusts it; OpenSSL (curl, tailgate's native I/O path) accepts " +
      "it: re-issue it as a server certificate (`-addext basicConstraints=critical,CA:FALSE`)",
  );
});

Deno.test("sendStep() says an expired certificate has expired, without advising --ca-cert", async () => {
  assert.match(
    await sentTo(await expiredSelfSigned(false)),
    /^https:\/\/127\.0\.0\.1:\d+: the target's TLS certificate has expired \(.+\): renew it on the server; trusting it \(--ca-cert\) cannot make it valid$/,
  );
});
