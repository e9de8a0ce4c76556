import assert from "node:assert/strict";
import { roundOrders } from "../../../runner/ab/round_order.ts";

Deno.test("roundOrders(): the same seed gives the same order; both orders occur", () => {
  assert.deepEqual(roundOrders(20, 42), roundOrders(20, 42));
  assert.notDeepEqual(roundOrders(20, 42), roundOrders(20, 43));
  const orders = roundOrders(40, 1).map((o) => o.join(","));
  const baseFirst = orders.filter((o) => o === "base,head").length;
  assert.ok(baseFirst > 8 && baseFirst < 32, `${baseFirst} of 40 base first`);
  assert.ok(orders.every((o) => o === "base,head" || o === "head,base"));
});
