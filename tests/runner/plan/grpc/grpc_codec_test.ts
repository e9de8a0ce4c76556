import assert from "node:assert/strict";
import { GREETER_PLAN, parseGrpc, shopPlan } from "./_grpc_plan.ts";
import { loadGrpcSupport, type PlanGrpcSchema } from "../../../../runner/plan/mod.ts";

async function codecOf(text: string) {
  const { grpcCodec } = await loadGrpcSupport();
  const { plan } = await parseGrpc(text);
  // Built from the schema as an engine worker gets it: plain data, posted.
  return grpcCodec(structuredClone(plan!.grpc!) as PlanGrpcSchema);
}

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(" ");

Deno.test("HelloRequest{name: user-1} frames as the known protobuf bytes behind a 5-byte prefix", async () => {
  const codec = await codecOf(GREETER_PLAN);
  const framed = codec.frame("helloworld.HelloRequest", '{"name":"user-1"}');
  assert.equal(hex(framed), "00 00 00 00 08 0a 06 75 73 65 72 2d 31");
  assert.deepEqual(codec.decode("helloworld.HelloRequest", framed.subarray(5)), { name: "user-1" });
  assert.equal(hex(codec.frame("helloworld.HelloRequest", "{}")), "00 00 00 00 00");
});

Deno.test("a reply decodes into its JSON form; bytes that are no such message decode to undefined", async () => {
  const codec = await codecOf(GREETER_PLAN);
  const reply = codec.frame("helloworld.HelloReply", '{"message":"Hello user-1"}').subarray(5);
  assert.deepEqual(codec.decoder("helloworld.HelloReply")(reply), {
    value: { message: "Hello user-1" },
  });
  assert.equal(
    codec.decoder("helloworld.HelloReply")(new Uint8Array([0x0a, 0x09, 0x41])),
    undefined,
  );
  assert.throws(() => codec.decode("helloworld.HelloReply", new Uint8Array([0x0a, 0x09, 0x41])));
  assert.throws(() => codec.frame("helloworld.Nope", "{}"), /no message type helloworld\.Nope/);
});

Deno.test("proto3 JSON forms encode and decode back: int64 as text, enums by name, well-known types", async () => {
  const codec = await codecOf(shopPlan("{}"));
  const order = {
    customerId: "c-1",
    qty: 3,
    total_cents: "9007199254740993",
    kind: "MUSIC",
    token: "aGk=",
    lines: [{ sku: "a", qty: 1 }],
    stock: { a: 2 },
    price: { currency: "EUR", units: "-5" },
    placed_at: "2026-01-02T03:04:05.500Z",
    hold: "1.5s",
    max_wait: 4,
    extra: { any: [1, "x", { y: null }] },
    card: "4111",
  };
  const framed = codec.frame("shop.v1.Order", JSON.stringify(order));
  const back = codec.decode("shop.v1.Order", framed.subarray(5)) as Record<string, unknown>;
  assert.equal(back.customer_id, "c-1");
  assert.equal(back.total_cents, "9007199254740993");
  assert.equal(back.kind, "MUSIC");
  assert.equal(back.token, "aGk=");
  assert.deepEqual(back.lines, [{ sku: "a", qty: 1 }]);
  assert.deepEqual(back.stock, { a: 2 });
  assert.deepEqual(back.price, { currency: "EUR", units: "-5" });
  assert.deepEqual(back.placed_at, {
    seconds: String(Date.UTC(2026, 0, 2, 3, 4, 5) / 1000),
    nanos: 500_000_000,
  });
  assert.deepEqual(back.hold, { seconds: "1", nanos: 500_000_000 });
  assert.deepEqual(back.max_wait, { value: 4 });
  assert.equal(back.card, "4111");
  const extra = back.extra as { fields: Record<string, unknown> };
  assert.deepEqual(extra.fields.any, {
    listValue: {
      values: [
        { numberValue: 1 },
        { stringValue: "x" },
        { structValue: { fields: { y: { nullValue: "NULL_VALUE" } } } },
      ],
    },
  });
});

Deno.test("encodeBody encodes each distinct rendered text once, the cache bounded", async () => {
  const codec = await codecOf(GREETER_PLAN);
  const utf8 = new TextEncoder();
  const buffer = new Uint8Array(64);
  const render = (text: string) => {
    buffer.fill(0x20);
    return buffer.subarray(0, utf8.encodeInto(text, buffer).written);
  };
  const a = render('{"name":"user-7"}');
  const first = codec.encodeBody("helloworld.HelloRequest", buffer, a.length);
  assert.equal(hex(first), "00 00 00 00 08 0a 06 75 73 65 72 2d 37");
  // The same text again (in a reused buffer) is the same bytes, not encoded anew.
  const b = render('{"name":"user-7"}');
  assert.equal(codec.encodeBody("helloworld.HelloRequest", buffer, b.length), first);
  const c = render('{"name":"user-8"}');
  const other = codec.encodeBody("helloworld.HelloRequest", buffer, c.length);
  assert.notEqual(other, first);
  assert.equal(hex(other.subarray(5)), "0a 06 75 73 65 72 2d 38");
});

Deno.test("encodeBody's cache of one type holds at most GRPC_ENCODE_CACHE_ENTRIES texts", async () => {
  const { GRPC_ENCODE_CACHE_ENTRIES } = await import("../../../../runner/plan/grpc/grpc_codec.ts");
  const codec = await codecOf(GREETER_PLAN);
  const utf8 = new TextEncoder();
  const encode = (i: number) => {
    const json = utf8.encode(`{"name":"u${i}"}`);
    return codec.encodeBody("helloworld.HelloRequest", json, json.length);
  };
  const first = encode(0);
  assert.equal(encode(0), first);
  for (let i = 1; i < GRPC_ENCODE_CACHE_ENTRIES; i++) encode(i);
  assert.equal(encode(0), first, "still cached: the cache is full, not past it");
  encode(GRPC_ENCODE_CACHE_ENTRIES);
  // The cache restarted: the text is encoded anew, to the same bytes.
  const again = encode(0);
  assert.notEqual(again, first);
  assert.deepEqual(again, first);
});
