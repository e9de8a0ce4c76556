import assert from "node:assert/strict";
import { didYouMean, editDistance } from "../../../../runner/plan/read/did_you_mean.ts";

Deno.test("didYouMean() finds a typo within a third of the word's length", () => {
  assert.equal(didYouMean("conections", ["connections", "stages"]), "connections");
  assert.equal(didYouMean("stgaes", ["connections", "stages"]), "stages");
});

Deno.test("didYouMean() finds a key that the unknown one extends", () => {
  assert.equal(didYouMean("rate_limit", ["rate", "duration"]), "rate");
});

Deno.test("didYouMean() maps words from other tools through synonyms", () => {
  assert.equal(
    didYouMean("concurrency", ["connections"], { concurrency: "connections" }),
    "connections",
  );
});

Deno.test("didYouMean() stays silent when nothing is close", () => {
  assert.equal(didYouMean("banana", ["rate", "duration", "warmup"]), undefined);
});

Deno.test("editDistance() counts an adjacent swap as one edit", () => {
  assert.equal(editDistance("stgaes", "stages"), 1);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("kitten", "sitting"), 3);
});
