/**
 * gRPC plan texts for the plan tests: parsed beside tests/testdata/grpc/ (helloworld.proto and
 * route_guide.proto, copied from grpc-go's examples), gRPC support loaded first.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadGrpcSupport } from "../../../../runner/plan/mod.ts";
import { parsePlanText } from "../../../../runner/plan/load_plan.ts";
import type { PlanParse } from "../../../../runner/plan/parse_plan.ts";

/** The folder of the test .proto files. */
export const GRPC_TESTDATA = fileURLToPath(new URL("../../../testdata/grpc/", import.meta.url));

/** The issue's plan, with the test data's proto. */
export const GREETER_PLAN = `name: greeter
target: grpc://127.0.0.1:50051
grpc: { proto: [helloworld.proto] }
vars: { n: counter }
requests:
  - { name: SayHello, call: helloworld.Greeter/SayHello, message: { name: "user-{{n}}" } }
load: { connections: 8, stages: [{ rate: 1k/s, duration: 10s }] }
slo: [p99 < 10ms, error_rate < 0.1%]
`;

/** A plan of one request item (`request`, YAML flow or block) against route_guide.proto. */
export function routePlan(request: string, extra = ""): string {
  return `name: route
target: grpc://127.0.0.1:50051
grpc: { proto: [route_guide.proto] }
${extra}requests:
  - ${request}
load: { stages: [{ rate: 10/s, duration: 1s }] }
`;
}

/** Parses `text` as a plan in tests/testdata/grpc/. */
export async function parseGrpc(
  text: string,
  env: Record<string, string> = {},
): Promise<PlanParse> {
  await loadGrpcSupport();
  return parsePlanText(text, { file: join(GRPC_TESTDATA, "t.yaml"), env: (n) => env[n] });
}

/** The errors of a parse as `line:col message (hint)`. */
export function errorLines(parse: PlanParse): string[] {
  return parse.issues.filter((i) => i.severity === "error").map((i) =>
    `${i.line}:${i.col} ${i.message}${i.hint ? ` (${i.hint})` : ""}`
  );
}

/** A plan of one request item against shop/shop.proto (imports common/money.proto and WKTs). */
export function shopPlan(message: string): string {
  return `name: shop
target: grpc://127.0.0.1:50051
grpc: { proto: [shop/shop.proto] }
vars: { n: counter, k: { choice: [BOOK, MUSIC] }, id: uuid, neg: { int: [-5, 5] }, yes: { choice: [true, false] } }
requests:
  - call: shop.v1.Orders/Place
    message: ${message}
load: { stages: [{ rate: 10/s, duration: 1s }] }
`;
}
