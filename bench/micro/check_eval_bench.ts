/**
 * Cost of one checked response on the engine thread, hot: a {@linkcode KeptResponse} filled as the
 * HTTP/1.1 reader fills it (two header lines, a 23-byte JSON body), then a label's six checks
 * evaluated on it with {@linkcode LabelChecks} (bench/check_cost.sh's `checked` plan), against
 * keeping alone. Run with `deno bench bench/micro/check_eval_bench.ts`.
 *
 * @module
 */
import { KeptResponse } from "../../runner/engine/kept_response.ts";
import { LabelChecks } from "../../runner/engine/response/mod.ts";
import type { ResponseOutcome } from "../../runner/engine/types.ts";
import type { PlanCheck } from "../../runner/plan/types.ts";

const OK = { codes: [200], classes: [] };
const at = (text: string) => ({ text, line: 1 });
const CHECKS: PlanCheck[] = [
  { kind: "status", expect: OK, ...at("status 200") },
  { kind: "header", name: "content-type", pattern: "json", ...at("content-type ~ json") },
  { kind: "json", pointer: "/state", test: { op: "eq", json: '"open"' }, ...at("/state == open") },
  { kind: "json", pointer: "/id", test: { op: "exists" }, ...at("/id exists") },
  { kind: "body_contains", contains: "open", ...at("body contains open") },
  { kind: "max_bytes", bytes: 4096, ...at("max_bytes 4096") },
];
const checks = new LabelChecks(CHECKS, OK);
const encode = (s: string) => new TextEncoder().encode(s);
const BODY = encode('{"state":"open","id":7}');
const LINES = [encode("Content-Length: 23"), encode("Content-Type: application/json")];

function kept(): ResponseOutcome {
  const k = new KeptResponse(1024 * 1024);
  for (const line of LINES) k.headLine(line, 0, line.length);
  k.add(BODY, 0, BODY.length);
  return {
    status: 200,
    bytesSent: 0,
    bytesReceived: 0,
    writtenAtMs: 0,
    completedAtMs: 0,
    body: k.body(),
    bodyBytes: k.bodyBytes,
    headers: k.headers(),
  };
}

Deno.bench("keep a response (head lines and a 23-byte body)", { baseline: true }, () => {
  kept();
});

Deno.bench("keep it and evaluate six checks", () => {
  if (checks.evaluate(kept())) throw new Error("a check failed");
});
