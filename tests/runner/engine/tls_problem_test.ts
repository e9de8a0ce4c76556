import assert from "node:assert/strict";
import { caUsedAsEndEntity, tlsProblem } from "../../../runner/engine/tls_problem.ts";

const URL_ = new URL("https://127.0.0.1:8443/");
const ORIGIN = "https://127.0.0.1:8443";

Deno.test("tlsProblem() reads OpenSSL's reasons as it reads rustls's", () => {
  const untrusted = `${ORIGIN}: the target's TLS certificate is not trusted: it is signed by an ` +
    "issuer this machine does not trust (self-signed, or a private CA); pass --ca-cert FILE with " +
    "the CA that signed it (a self-signed certificate: the certificate itself)";
  for (
    const message of [
      "invalid peer certificate: UnknownIssuer",
      "certificate verify failed: self-signed certificate",
      "certificate verify failed: unable to get local issuer certificate",
    ]
  ) assert.equal(tlsProblem(URL_, message), untrusted, message);
  assert.equal(
    tlsProblem(URL_, "certificate verify failed: IP address mismatch"),
    `${ORIGIN}: the target's TLS certificate is not valid for the name 127.0.0.1; reach the ` +
      "target by a name the certificate holds (--target), or have it present a certificate for " +
      "127.0.0.1",
  );
});

Deno.test("tlsProblem() never advises --ca-cert for a certificate out of its dates", () => {
  for (
    const message of [
      "invalid peer certificate: certificate expired: verification time 1795962308 (UNIX), but " +
      "certificate is not valid after 1580515200 (215447108 seconds ago)",
      "certificate verify failed: certificate has expired",
      "invalid peer certificate: certificate not valid yet: verification time 1, but certificate " +
      "is not valid before 2",
      "certificate verify failed: certificate is not yet valid",
    ]
  ) {
    const problem = tlsProblem(URL_, message);
    assert.match(problem, /has expired|is not valid yet/, message);
    assert.ok(!problem.includes("pass --ca-cert"), problem);
  }
});

Deno.test("tlsProblem() names a CA certificate used as the server's own, with the fix", () => {
  const message = "invalid peer certificate: Other(OtherError(CaUsedAsEndEntity))";
  assert.ok(caUsedAsEndEntity(message));
  assert.match(
    tlsProblem(URL_, message),
    /^https:\/\/127\.0\.0\.1:8443: the server's certificate is a CA certificate \(basicConstraints CA:TRUE.*re-issue it as a server certificate \(`-addext basicConstraints=critical,CA:FALSE`\)$/,
  );
  assert.ok(!caUsedAsEndEntity("invalid peer certificate: UnknownIssuer"));
});
