import assert from "node:assert/strict";
import { errorLines, parseGrpc, shopPlan } from "./_grpc_plan.ts";

Deno.test("a message with every kind of field, nested, imported and well-known, is accepted", async () => {
  const parse = await parseGrpc(shopPlan(
    '{ customer_id: c-1, qty: 3, total_cents: "9007199254740993", priority: 7, weight: 1.5, ' +
      "gift: true, token: aGk=, kind: BOOK, lines: [{ sku: a, qty: 1 }], stock: { a: 1 }, " +
      'notes: { "3": x }, price: { currency: EUR, units: 12 }, placedAt: "2026-01-02T03:04:05.5Z", ' +
      'hold: 1.5s, max_wait: 4, extra: { any: [1, x, { y: null }] }, tags: [a, b], card: "4111" }',
  ));
  assert.deepEqual(errorLines(parse), []);
});

Deno.test("an unknown field is located at its key with a did-you-mean over field and JSON names", async () => {
  const parse = await parseGrpc(shopPlan("{ customerid: c-1, lines: [{ skus: a }] }"));
  assert.deepEqual(errorLines(parse), [
    "7:16 shop.v1.Order has no field `customerid` (did you mean `customer_id`?)",
    "7:43 shop.v1.Line has no field `skus` (did you mean `sku`?)",
  ]);
});

Deno.test("wrong scalar types, ranges and base64 are each a located error with a hint", async () => {
  const parse = await parseGrpc(shopPlan(
    '{ qty: abc, total_cents: 1.5, priority: -1, weight: heavy, gift: yes, token: "*", ' +
      "customer_id: 12 }",
  ));
  assert.deepEqual(errorLines(parse), [
    '7:21 `qty` (int32) takes a whole number (e.g. `42` (64-bit values may be written as text: `"42"`))',
    "7:39 `total_cents` (int64) takes a whole number (`1.5` has a fraction)",
    "7:54 `priority` (uint32) takes 0 to 4294967295 (`-1` is out of range)",
    "7:66 `weight` (double) takes a number (e.g. `1.5`)",
    "7:79 `gift` (bool) takes true or false",
    "7:91 `token` (bytes) takes base64 text (encode the bytes as base64, e.g. `aGk=`)",
    '7:109 `customer_id` (string) takes text (quote it: `"12"`)',
  ]);
});

Deno.test("enum names are checked with a did-you-mean; numbers pass", async () => {
  const parse = await parseGrpc(shopPlan("{ kind: BOK }"));
  assert.deepEqual(errorLines(parse), [
    "7:22 `BOK` is not a value of enum shop.v1.Kind (did you mean `BOOK`?)",
  ]);
  assert.deepEqual(errorLines(await parseGrpc(shopPlan("{ kind: 2 }"))), []);
});

Deno.test("repeated fields take lists, maps mappings with keys of their type, messages mappings", async () => {
  const parse = await parseGrpc(shopPlan(
    "{ tags: a, lines: [x], stock: [1], notes: { abc: x }, price: 12 }",
  ));
  assert.deepEqual(errorLines(parse), [
    "7:22 `tags` is repeated: write a list (e.g. `[a, b]`)",
    "7:33 a shop.v1.Line message is a mapping of its fields (found `x`)",
    "7:44 `stock` is a map: write a mapping of keys to values",
    "7:58 the map's keys (int32) are whole numbers",
    "7:75 a common.Money message is a mapping of its fields (found `12`)",
  ]);
});

Deno.test("well-known types take their JSON forms; two members of a oneof are refused", async () => {
  const parse = await parseGrpc(shopPlan(
    "{ placed_at: yesterday, hold: 90, max_wait: x, extra: [1], card: a, voucher: b }",
  ));
  assert.deepEqual(errorLines(parse), [
    '7:27 `placed_at`: a Timestamp is RFC 3339 text (e.g. `"2026-01-02T03:04:05Z"`)',
    '7:44 `hold`: a Duration is text in seconds (e.g. `"1.5s"`)',
    "7:58 `max_wait` (google.protobuf.Int32Value) takes a whole number (e.g. `42` (64-bit values " +
    'may be written as text: `"42"`))',
    "7:68 `extra`: a Struct is a mapping",
    "7:82 `voucher` and `card` are both of oneof `pay` (give one of them)",
  ]);
});

Deno.test("templates fit text anywhere, and numbers, bools and enums as the whole value", async () => {
  const ok = await parseGrpc(shopPlan(
    '{ customer_id: "c-{{n}}", qty: "{{n}}", kind: "{{k}}", lines: [{ sku: "s-{{n}}" }] }',
  ));
  assert.deepEqual(errorLines(ok), []);
  const body = ok.plan!.requests[0].template!.body!;
  assert.ok(body.some((p) => p.kind === "ref" && p.encoding === "json_value"));
  const bad = await parseGrpc(shopPlan('{ qty: "q{{n}}" }'));
  assert.deepEqual(errorLines(bad), [
    "7:21 `qty` (int32) cannot be text around a template (write the whole value as one template, " +
    'e.g. `"{{n}}"`)',
  ]);
});

Deno.test("a whole-value template is checked against what its var draws", async () => {
  const ok = await parseGrpc(shopPlan(
    '{ customer_id: "{{n}}", qty: "{{neg}}", weight: "{{n}}", gift: "{{yes}}", kind: "{{k}}", ' +
      'total_cents: "{{n}}" }',
  ));
  assert.deepEqual(errorLines(ok), []);
  const bad = await parseGrpc(shopPlan(
    '{ qty: "{{id}}", priority: "{{neg}}", gift: "{{n}}", kind: "{{id}}", token: "{{n}}" }',
  ));
  assert.deepEqual(errorLines(bad), [
    "7:21 `qty` (int32) cannot take a uuid, which `{{id}}` draws (draw values of the field's " +
    "type, or put the template in a text field)",
    "7:41 `priority` (uint32) cannot take `-5`, which `{{neg}}` draws (draw values of the field's " +
    "type, or put the template in a text field)",
    "7:58 `gift` (bool) cannot take `1`, which `{{n}}` draws (draw values of the field's type, " +
    "or put the template in a text field)",
    "7:73 `kind` (shop.v1.Kind) cannot take a uuid, which `{{id}}` draws (draw the enum's names: " +
    "`{ choice: [KIND_UNSPECIFIED, BOOK, MUSIC] }`)",
    "7:90 `token` (bytes) cannot take `1`, which `{{n}}` draws (draw values of the field's type, " +
    "or put the template in a text field)",
  ]);
});

Deno.test("a data column's every row is checked against the field its template fills", async () => {
  const plan = (message: string) =>
    shopPlan(message).replace(
      "vars:",
      "data: { csv: { file: shop/orders.csv }, json: { file: shop/orders.jsonl } }\nvars:",
    );
  const ok = await parseGrpc(plan('{ customer_id: "{{csv.customer}}", kind: "{{csv.kind}}" }'));
  assert.deepEqual(errorLines(ok), []);
  const bad = await parseGrpc(plan(
    '{ qty: "{{csv.qty}}", priority: "{{json.qty}}", kind: "{{json.kind}}" }',
  ));
  assert.deepEqual(errorLines(bad), [
    "8:21 `qty` (int32) cannot take `x4` (row 2 of csv.qty), which `{{csv.qty}}` draws (fix the " +
    "data file `shop/orders.csv`, or put the template in a text field)",
    "8:46 `priority` (uint32) cannot take `2.5` (row 2 of json.qty), which `{{json.qty}}` draws " +
    "(fix the data file `shop/orders.jsonl`, or put the template in a text field)",
    "8:68 `kind` (shop.v1.Kind) cannot take `POSTER` (row 2 of json.kind), which `{{json.kind}}` " +
    "draws (fix the data file `shop/orders.jsonl`, or put the template in a text field; the " +
    "enum's names: KIND_UNSPECIFIED, BOOK, MUSIC)",
  ]);
});
