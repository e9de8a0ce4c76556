/**
 * The plan's requests: `target`, `defaults`, `requests`, `setup` and `teardown`, with their URLs,
 * headers, bodies and expected statuses.
 *
 * @module
 */
export { checkLabelCount, LABEL_WARNING_COUNT, MAX_REQUEST_LABELS } from "./label_cap.ts";
export { readBody } from "./validate_body.ts";
export { MAX_BODY_FILE_BYTES, MAX_TEMPLATE_BODY_BYTES } from "../runtime/mod.ts";
export { readExpect } from "./validate_expect.ts";
export { statusExpected } from "../runtime/mod.ts";
export { readHeaders } from "./validate_headers.ts";
export { isGrpcTarget, readDefaults, readRequests, readTarget } from "./validate_requests.ts";
export { grpcDefaultsOk, grpcTimeout, type RequestDefaults } from "./validate_grpc_call.ts";
export type { PlanContext } from "./validate_requests.ts";
export { declaredCaptures, readSteps, warnUnusedCaptures } from "./validate_steps.ts";
export { credentialsProblem, parseHttpUrl, readRequestUrl, urlTextOk } from "./validate_url.ts";
export { notYetRun } from "./journey_refusal.ts";
export { firstUrl, labelNames, type MixLabel, type MixLabels, mixLabels } from "../runtime/mod.ts";
export { MAX_TRACESTATE_MEMBERS, readTrace, tracestateProblem } from "./validate_trace.ts";
export { isTraceHeader } from "../runtime/mod.ts";
