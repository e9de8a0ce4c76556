import assert from "node:assert/strict";
import { hlogTag, parseHlogTag } from "../../../runner/hdr/hlog_tag.ts";

Deno.test("hlogTag() leaves all requests' response time untagged and names the rest", () => {
  assert.equal(hlogTag("response"), undefined);
  assert.equal(hlogTag("service"), "service");
  assert.equal(hlogTag("response", "GET /orders"), "response:GET%20/orders");
  assert.equal(hlogTag("service", "POST /orders/{id},v2"), "service:POST%20/orders/{id}%2Cv2");
  assert.equal(hlogTag("response", "café 100%"), "response:caf%C3%A9%20100%25");
  assert.equal(hlogTag("response", "a\tb\r\nc"), "response:a%09b%0D%0Ac");
});

Deno.test("hlogTag() writes no character a reference reader splits or rejects tags at", () => {
  for (const label of ["GET /orders", "a, b", " ", "tab\there", "line\nbreak", "ünï cödé 🚀", ""]) {
    for (const metric of ["response", "service"] as const) {
      assert.doesNotMatch(hlogTag(metric, label)!, /[\s,]/, JSON.stringify(label));
    }
  }
});

Deno.test("parseHlogTag() gives back the metric and label of every tag hlogTag() writes", () => {
  const labels = ["GET /orders", "POST /orders/{id},v2", "café 100%", "%20", "a%2520b", "🚀", ""];
  for (const label of labels) {
    for (const metric of ["response", "service"] as const) {
      assert.deepEqual(parseHlogTag(hlogTag(metric, label)), { metric, label });
    }
  }
  assert.deepEqual(parseHlogTag(undefined), { metric: "response" });
  assert.deepEqual(parseHlogTag("service"), { metric: "service" });
});

Deno.test("labels that differ only in how they would be escaped get different tags", () => {
  const pairs = [["a b", "a%20b"], ["x,y", "x%2Cy"], ["%", "%25"]];
  for (const [one, other] of pairs) {
    assert.notEqual(hlogTag("response", one), hlogTag("response", other));
  }
});

Deno.test("parseHlogTag() does not claim tags tailgate does not write", () => {
  for (const tag of ["gc-pauses", "response", "", "latency:GET", "response:%zz", "response:%C3"]) {
    assert.equal(parseHlogTag(tag), undefined, tag);
  }
  // Escapes tailgate would not write (lower-case hex, an escaped plain character).
  assert.equal(parseHlogTag("response:GET%2f"), undefined);
  assert.equal(parseHlogTag("response:%41"), undefined);
});
