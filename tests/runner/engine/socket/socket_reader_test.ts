import assert from "node:assert/strict";
import { socketReader } from "../../../../runner/engine/socket/socket_reader.ts";

Deno.test("socketReader() reads plain TCP through the direct op: the bytes, then null at the end", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const served = (async () => {
    const peer = await listener.accept();
    await peer.write(new TextEncoder().encode("HTTP/1.1 200 OK\r\n"));
    peer.close();
  })();
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port });
  try {
    const { read, direct } = socketReader(conn, false);
    assert.equal(direct, true, "Deno 2.9's read op is reachable: the Set-free path is in use");
    const buffer = new Uint8Array(64);
    let text = "";
    for (let n = await read(buffer); n !== null; n = await read(buffer)) {
      text += new TextDecoder().decode(buffer.subarray(0, n));
    }
    assert.equal(text, "HTTP/1.1 200 OK\r\n");
  } finally {
    conn.close();
    await served;
    listener.close();
  }
});

Deno.test("socketReader() leaves TLS connections to Conn.read", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepted = listener.accept();
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port });
  try {
    assert.equal(socketReader(conn, true).direct, false);
  } finally {
    conn.close();
    (await accepted).close();
    listener.close();
  }
});
