/**
 * An HTTP/1.1 server in a process of its own (the native path's loop blocks the test's thread
 * between sends), on 127.0.0.1 port 0, written on raw TCP so each part leaves when the test says:
 * its head at once, its body `bodyDelayMs` later. Paths choose the answer:
 *
 * - `/limited`: 429 with `Retry-After: 7`;
 * - `/busy`: 503 with `Retry-After` an HTTP date 30 s ahead;
 * - `/down`: 503 without `Retry-After`;
 * - `/bare-429`: 429 without `Retry-After`;
 * - anything else: 200 `body`.
 *
 * Stopped by its PID when the test's scope ends.
 *
 * @module
 */

/** A started server. */
export interface SlowBodyServer extends AsyncDisposable {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  readonly url: string;
}

const SERVER = `
const bodyDelayMs = Number(Deno.args[0]);
const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
console.log(listener.addr.port);
const enc = new TextEncoder();
function head(path) {
  if (path === "/limited") return "HTTP/1.1 429 Too Many Requests\\r\\nRetry-After: 7\\r\\n";
  if (path === "/bare-429") return "HTTP/1.1 429 Too Many Requests\\r\\n";
  if (path === "/busy") {
    const at = new Date(Date.now() + 30_000).toUTCString();
    return "HTTP/1.1 503 Service Unavailable\\r\\nretry-after:  " + at + "\\r\\n";
  }
  if (path === "/down") return "HTTP/1.1 503 Service Unavailable\\r\\n";
  return "HTTP/1.1 200 OK\\r\\n";
}
async function serve(conn) {
  const buf = new Uint8Array(65536);
  let text = "";
  try {
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) return;
      text += new TextDecoder().decode(buf.subarray(0, n));
      let end;
      while ((end = text.indexOf("\\r\\n\\r\\n")) >= 0) {
        const path = text.slice(0, text.indexOf("\\r\\n")).split(" ")[1];
        text = text.slice(end + 4);
        await conn.write(enc.encode(head(path) + "Content-Length: 4\\r\\n\\r\\n"));
        await new Promise((r) => setTimeout(r, bodyDelayMs));
        await conn.write(enc.encode("body"));
      }
    }
  } catch {
    // the client went away
  } finally {
    try { conn.close(); } catch { /* closed */ }
  }
}
for await (const conn of listener) {
  conn.setNoDelay(true);
  serve(conn);
}
`;

/** Starts the server; each body follows its head after `bodyDelayMs`. */
export async function slowBodyServer(bodyDelayMs: number): Promise<SlowBodyServer> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", SERVER, String(bodyDelayMs)],
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const { value } = await reader.read();
  return {
    url: `http://127.0.0.1:${Number.parseInt(value ?? "")}`,
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await reader.cancel();
      await child.status;
    },
  };
}
