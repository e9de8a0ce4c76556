import assert from "node:assert/strict";
import {
  captureValue,
  resolvePointer,
  type StepResponse,
} from "../../../../runner/engine/response/mod.ts";
import { NO_VALUE, pointerValue } from "../../../../runner/engine/response/capture_value.ts";

function response(bodyText: string, headers: Record<string, string[]> = {}): StepResponse {
  return {
    header: (name) => headers[name] ?? [],
    names: () => Object.keys(headers).map((k) => `\`${k}\``).join(", ") || "none",
    bodyText,
  };
}

Deno.test("a JSON pointer follows RFC 6901: keys, array indexes, ~1 for / and ~0 for ~", () => {
  const doc = { "a/b": { "m~n": [10, { id: "x" }] }, "": 1 };
  assert.deepEqual(resolvePointer(doc, "/a~1b/m~0n/1/id"), { ok: true, value: "x" });
  assert.deepEqual(resolvePointer(doc, ""), { ok: true, value: doc });
  assert.deepEqual(resolvePointer(doc, "/"), { ok: true, value: 1 });
  assert.equal(resolvePointer(doc, "/a~1b/m~0n/2").ok, false);
  assert.equal(resolvePointer(doc, "/a~1b/m~0n/01").ok, false, "no leading zeros");
  assert.equal(resolvePointer({ toString: 1 }, "/constructor").ok, false, "own keys only");
});

Deno.test("a captured JSON value keeps its text for paths and headers and its JSON for bodies", () => {
  const body = JSON.stringify({ t: "abc", n: 42, o: { k: [1] }, b: false });
  assert.deepEqual(captureValue({ kind: "json", pointer: "/t" }, response(body)), {
    ok: true,
    value: { text: "abc", json: '"abc"' },
  });
  assert.deepEqual(captureValue({ kind: "json", pointer: "/n" }, response(body)), {
    ok: true,
    value: { text: "42", json: "42" },
  });
  assert.deepEqual(captureValue({ kind: "json", pointer: "/o" }, response(body)), {
    ok: true,
    value: { text: '{"k":[1]}', json: '{"k":[1]}' },
  });
});

Deno.test("a pointer that finds nothing names where it stopped and the keys there, not their values", () => {
  const r = response(JSON.stringify({ data: { token: "SECRET-1", user: 7 } }));
  const got = captureValue({ kind: "json", pointer: "/data/access_token" }, r);
  assert.ok(!got.ok);
  assert.equal(
    got.problems[0].message,
    'the response\'s JSON has nothing at `/data/access_token` (at `/data`, an object with "token", "user")',
  );
  assert.ok(!got.problems[0].message.includes("SECRET-1"));
  const arr = captureValue({ kind: "json", pointer: "/3" }, response("[1,2]"));
  assert.ok(
    !arr.ok && /at its root, an array of 2/.test(arr.problems[0].message),
    JSON.stringify(arr),
  );
  const text = captureValue({ kind: "json", pointer: "/t" }, response("<html>oops"));
  assert.ok(!text.ok && text.problems[0].showBody, "a body that is no JSON may be shown");
});

Deno.test("set-cookie gives the first cookie's name=value; another header all its values", () => {
  const r = response("", {
    "set-cookie": ["sid=abc; Path=/; HttpOnly", "theme=dark"],
    "x-id": ["7"],
  });
  assert.deepEqual(captureValue({ kind: "header", name: "set-cookie" }, r), {
    ok: true,
    value: { text: "sid=abc", json: '"sid=abc"' },
  });
  assert.deepEqual(captureValue({ kind: "header", name: "x-id" }, r), {
    ok: true,
    value: { text: "7", json: '"7"' },
  });
  const missing = captureValue({ kind: "header", name: "x-token" }, r);
  assert.deepEqual(missing, {
    ok: false,
    problems: [{ message: "the response has no `x-token` header (it has `set-cookie`, `x-id`)" }],
  });
});

Deno.test("captureValue() keeps a number as the server wrote it: never rounded beyond 2^53", () => {
  const response = {
    header: () => [],
    names: () => "",
    bodyText: '{"id":12345678901234567890,"price":1.50,"n":8,"order":{"id":98765432109876543210}}',
  };
  const at = (pointer: string) => captureValue({ kind: "json", pointer }, response);
  assert.deepEqual(at("/id"), {
    ok: true,
    value: { text: "12345678901234567890", json: "12345678901234567890" },
  });
  assert.deepEqual(at("/price"), { ok: true, value: { text: "1.50", json: "1.50" } });
  assert.deepEqual(at("/n"), { ok: true, value: { text: "8", json: "8" } });
  assert.deepEqual(at("/order"), {
    ok: true,
    value: { text: '{"id":98765432109876543210}', json: '{"id":98765432109876543210}' },
  });
  // A pointer through such a number stops at it, a number.
  const through = at("/id/rawJSON");
  assert.ok(!through.ok);
  assert.match(through.problems[0].message, /at `\/id`, a number/);
});

Deno.test("pointerValue() finds what resolvePointer() finds, and nothing where it misses", () => {
  const doc = { a: { "b/c": [10, { "~d": null }] }, e: [], f: 0, g: "s" };
  const pointers = [
    "",
    "/a",
    "/a/b~1c",
    "/a/b~1c/0",
    "/a/b~1c/1/~0d",
    "/a/b~1c/2",
    "/a/b~1c/01",
    "/a/x",
    "/e/0",
    "/f",
    "/f/x",
    "/g/0",
    "/",
    "/a/",
  ];
  for (const p of pointers) {
    const r = resolvePointer(doc, p);
    assert.deepEqual(pointerValue(doc, p), r.ok ? r.value : NO_VALUE, p);
  }
});
