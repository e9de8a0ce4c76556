import assert from "node:assert/strict";
import { gatesVerdict, worstStatus } from "../../../../runner/result/read/verdict_order.ts";

Deno.test("worstStatus() of gates orders fail, invalid, inconclusive, pass", () => {
  assert.equal(worstStatus([]), "pass");
  assert.equal(worstStatus(["pass", "inconclusive"]), "inconclusive");
  assert.equal(worstStatus(["inconclusive", "invalid"]), "invalid");
  assert.equal(worstStatus(["inconclusive", "fail"]), "fail");
  assert.equal(worstStatus(["fail", "invalid"]), "fail");
});

Deno.test("worstStatus() ranks fail over invalid over inconclusive over pass", () => {
  assert.equal(worstStatus([]), "pass");
  assert.equal(worstStatus(["pass", "inconclusive"]), "inconclusive");
  assert.equal(worstStatus(["inconclusive", "invalid", "pass"]), "invalid");
  assert.equal(worstStatus(["inconclusive", "fail", "pass"]), "fail");
  assert.equal(worstStatus(["fail", "invalid", "inconclusive"]), "fail");
});

Deno.test("gatesVerdict() is regression-only when every undecided gate is a regression check", () => {
  assert.deepEqual(gatesVerdict([{ kind: "regression", status: "inconclusive" }]), {
    status: "inconclusive",
    regressionOnly: true,
    runnerOnly: true,
  });
  assert.deepEqual(
    gatesVerdict([{ kind: "slo", status: "inconclusive" }, {
      kind: "regression",
      status: "inconclusive",
    }]),
    { status: "inconclusive" },
  );
  assert.deepEqual(gatesVerdict([{ kind: "regression", status: "fail" }]), { status: "fail" });
  assert.deepEqual(gatesVerdict([]), { status: "pass" });
});

Deno.test("gatesVerdict() is runner-only when every undecided gate is the runner's, not the plan's", () => {
  const contended = {
    kind: "slo" as const,
    status: "inconclusive" as const,
    causes: ["contention" as const],
  };
  const regression = { kind: "regression" as const, status: "inconclusive" as const };
  assert.deepEqual(gatesVerdict([contended, regression]), {
    status: "inconclusive",
    runnerOnly: true,
  });
  const short = {
    kind: "slo" as const,
    status: "inconclusive" as const,
    causes: ["sampling" as const],
  };
  assert.deepEqual(gatesVerdict([contended, short]), { status: "inconclusive" });
});
