/**
 * What a failed TLS handshake means, in one sentence with the fix, from the error of either TLS
 * tailgate uses: Deno's (rustls: `invalid peer certificate: UnknownIssuer`) or OpenSSL's on the
 * native path (`certificate verify failed: self-signed certificate`). `--ca-cert` is advised only
 * where trusting a certificate is the fix: never for an expired one, one not valid yet or one for
 * another name. Pure.
 *
 * @module
 */

/** Whether a handshake's error is rustls refusing a CA certificate (CA:TRUE) as the server's own. */
export function caUsedAsEndEntity(message: string): boolean {
  return /CaUsedAsEndEntity/.test(message);
}

/**
 * Why Deno's TLS refuses a CA certificate presented as a server's own, and the fix: the
 * certificate `openssl req -x509` makes unless told otherwise. OpenSSL (curl, the native path)
 * accepts it once trusted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CA_AS_END_ENTITY } from "./tls_problem.ts";
 * assert.match(CA_AS_END_ENTITY, /basicConstraints=critical,CA:FALSE/);
 * ```
 */
export const CA_AS_END_ENTITY = "the server's certificate is a CA certificate (basicConstraints " +
  "CA:TRUE, as `openssl req -x509` makes it unless told otherwise) presented as its own, which " +
  "Deno's TLS (rustls) refuses even when --ca-cert trusts it; OpenSSL (curl, tailgate's native " +
  "I/O path) accepts it: re-issue it as a server certificate (`-addext " +
  "basicConstraints=critical,CA:FALSE`)";

/**
 * What a failed handshake with `url` means, from its error `message` (rustls's or OpenSSL's).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tlsProblem } from "./tls_problem.ts";
 * const url = new URL("https://127.0.0.1:8443/");
 * const expired = tlsProblem(url, "certificate verify failed: certificate has expired");
 * assert.equal(expired, "https://127.0.0.1:8443: the target's TLS certificate has expired " +
 *   "(certificate has expired): renew it on the server; trusting it (--ca-cert) cannot make it valid");
 * ```
 */
export function tlsProblem(url: URL, message: string): string {
  if (/no.?application.?protocol/i.test(message)) {
    return `${url.origin} refused a TLS handshake offering ALPN http/1.1 (${message}): it does ` +
      "not speak HTTP/1.1, which tailgate sends; point the plan at a server that does";
  }
  const reason = /(?:invalid peer certificate|certificate verify failed): (.*)$/.exec(message)?.[1];
  if (reason === undefined) {
    return `${url.origin} did not complete a TLS handshake (${message}): is it an https server? ` +
      "A plain-HTTP target takes an http:// URL";
  }
  const certificate = `${url.origin}: the target's TLS certificate`;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const name = /not valid for name "([^"]*)"(?:; certificate is only valid for (.*))?/
    .exec(reason);
  if (name || /hostname mismatch|IP address mismatch/i.test(reason)) {
    const valid = name?.[2]?.replace(/\w+\("([^"]*)"\)/g, "$1");
    return `${certificate} is not valid for the name ${name?.[1] ?? host}` +
      (valid ? ` (only for ${valid})` : "") + "; reach the target by a name the certificate " +
      `holds (--target), or have it present a certificate for ${name?.[1] ?? host}`;
  }
  if (/expired/i.test(reason)) {
    return `${certificate} has expired (${reason}): renew it on the server; trusting it ` +
      "(--ca-cert) cannot make it valid";
  }
  if (/not ?(?:valid ?yet|yet ?valid)/i.test(reason)) {
    return `${certificate} is not valid yet (${reason}): check this machine's clock, or the ` +
      "certificate's start date on the server";
  }
  if (caUsedAsEndEntity(reason)) return `${url.origin}: ${CA_AS_END_ENTITY}`;
  const why = /UnknownIssuer|self.signed|unable to get (?:local )?issuer/i.test(reason)
    ? "it is signed by an issuer this machine does not trust (self-signed, or a private CA)"
    : reason;
  return `${certificate} is not trusted: ${why}; pass --ca-cert FILE with the CA that signed it ` +
    "(a self-signed certificate: the certificate itself)";
}
