/**
 * Helpers for report tests: a real result (recorded through the Recorder and judged by the SLO
 * gate) of a plan with a warmup, a constant and a ramp stage, a secret header and a failing SLO;
 * a baseline to overlay; and a plan whose every free text is hostile HTML.
 *
 * @module
 */
import { evaluateSlos } from "../../runner/gates/slo/evaluate_slos.ts";
import { computeRunVerdict } from "../../runner/gates/run_verdict.ts";
import { toEncodedHistogram } from "../../runner/hdr/encoded_histogram.ts";
import { buildResult } from "../../runner/result/build_result.ts";
import type { BaselineReference, RunResult } from "../../runner/model/run_result.ts";
import { scaledUs } from "./gate_fixtures.ts";
import { parseText } from "./plan_fixtures.ts";
import { ENVIRONMENT, recordPlan, SECRET_TOKEN } from "./result_fixtures.ts";

/**
 * A warmup, a constant stage and a ramp; two labels; a secret header; SLOs of which `max < 1ms`
 * fails (every answered request takes 1.5 ms in {@linkcode recordPlan}).
 *
 * @example
 * ```ts
 * import { REPORT_PLAN } from "./report_fixtures.ts";
 * REPORT_PLAN.includes("ramp:"); // true
 * ```
 */
export const REPORT_PLAN = `name: checkout
description: Checkout flow under a rising load.
target: http://127.0.0.1:8080
defaults:
  headers:
    Authorization: "Bearer \${env.TOKEN}"
requests:
  - name: GET /cart
    path: /cart
  - name: POST /order
    method: POST
    path: /order
    body: '{"sku": 1}'
load:
  stages:
    - { name: warm, rate: 10/s, duration: 1s, warmup: true }
    - { name: steady, rate: 30/s, duration: 3s }
    - { name: climb, ramp: 20/s -> 80/s, over: 4s }
slo:
  - p50 < 5ms
  - p90 < 1ms
  - max < 1ms
  - error_rate < 50%
`;

/**
 * The hostile plan's marker: every free text of {@linkcode hostileResult} carries it.
 *
 * @example
 * ```ts
 * import { HOSTILE } from "./report_fixtures.ts";
 * HOSTILE.includes("</script>"); // true
 * ```
 */
export const HOSTILE = "</script><img src=x onerror=window.pwned=1>\u2028<!--&amp;'";

/**
 * {@linkcode REPORT_PLAN} (with `extraSlos` after its SLOs) recorded and judged, with a baseline
 * unless `baseline` is false.
 *
 * @example
 * ```ts
 * import { reportResult } from "./report_fixtures.ts";
 * reportResult().verdicts.some((v) => v.status === "fail"); // true
 * ```
 */
export function reportResult(
  options: { baseline?: boolean; extraSlos?: string[] } = {},
): RunResult {
  const extra = (options.extraSlos ?? []).map((slo) => `  - ${slo}\n`).join("");
  const result = judged(REPORT_PLAN + extra);
  if (options.baseline !== false) result.baseline = baselineOf(result);
  return result;
}

/**
 * A judged result whose plan name, description, stage, request names and SLO label are
 * {@linkcode HOSTILE}, and which carries a hostile warning.
 *
 * @example
 * ```ts
 * import { hostileResult } from "./report_fixtures.ts";
 * hostileResult().plan.name.includes("<img"); // true
 * ```
 */
export function hostileResult(): RunResult {
  const quoted = JSON.stringify(HOSTILE);
  // An SLO label cannot hold a line separator (U+2028): the label and its request go without it.
  const label = HOSTILE.replace("\u2028", " ");
  const text = REPORT_PLAN
    .replace("name: checkout", `name: ${quoted}`)
    .replace("description: Checkout flow under a rising load.", `description: ${quoted}`)
    .replace("name: GET /cart", `name: ${JSON.stringify(label)}`)
    .replace("name: steady", `name: ${quoted}`)
    .replace("  - p50 < 5ms", `  - ${JSON.stringify(`p50 < 5ms for "${label}"`)}`);
  const result = judged(text);
  result.warnings = [`baseline not used: ${HOSTILE}`];
  result.baseline = baselineOf(result);
  return result;
}

function judged(text: string): RunResult {
  const { plan, issues } = parseText(text, { env: { TOKEN: SECRET_TOKEN } });
  if (!plan) throw new Error(`fixture plan is invalid: ${JSON.stringify(issues)}`);
  const result = buildResult(plan, recordPlan(plan), ENVIRONMENT);
  result.verdicts = evaluateSlos(result);
  result.verdict = computeRunVerdict(result);
  return result;
}

/** A baseline whose stages were 20% faster: response times over [400, 1200] µs. */
function baselineOf(result: RunResult): BaselineReference {
  return {
    source: ".tailgate/baselines/checkout.json",
    runs: 3,
    date: "2025-01-01T00:00:00.000Z",
    gitSha: "0123456789abcdef0123456789abcdef01234567",
    stages: result.stages.map((s) => {
      const encoded = toEncodedHistogram(scaledUs(Math.max(1, s.counts.completed), 0.8));
      return {
        index: s.index,
        name: s.name,
        warmup: s.warmup,
        response: encoded,
        service: encoded,
      };
    }),
  };
}
