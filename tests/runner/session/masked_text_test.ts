import assert from "node:assert/strict";
import { maskedBody, secretForms } from "../../../runner/session/mod.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("maskedBody() blots out every secret in each form a body may carry it", () => {
  const secrets = secretForms(["hunter2", 'tok/1 "x"']);
  assert.equal(
    maskedBody(
      bytes(
        '{"error":"bad password hunter2","token":"tok/1 \\"x\\"","url":"/t/tok%2F1%20%22x%22"}',
      ),
      secrets,
      false,
    ),
    '{"error":"bad password ***","token":"***","url":"/t/***"}',
  );
  assert.equal(maskedBody(bytes(""), secrets, false), "");
});

Deno.test("maskedBody() of a cut body blots a secret the cut left in part at its end", () => {
  const secrets = secretForms(["s3cr3t-token-value"]);
  // The body's kept bytes end in the secret's first 9 characters: shown, they would leak them.
  assert.equal(maskedBody(bytes("Bearer s3cr3t-to"), secrets, true), "Bearer ***");
  // A body that was not cut ends where it ends: nothing more is blotted.
  assert.equal(maskedBody(bytes("Bearer s3cr3t-to"), secrets, false), "Bearer s3cr3t-to");
});

Deno.test("maskedBody() drops a character the cut split, and shows invalid bytes as U+FFFD", () => {
  const euro = bytes("price: €"); // € is 3 bytes
  assert.equal(maskedBody(euro.subarray(0, euro.length - 1), [], true), "price: ");
  assert.equal(maskedBody(new Uint8Array([0x6f, 0x6b, 0xff]), [], false), "ok\ufffd");
});
