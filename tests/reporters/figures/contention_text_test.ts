import assert from "node:assert/strict";
import { contentionSentence } from "../../../reporters/figures/contention_text.ts";
import type { RunContention, RunResult } from "../../../runner/model/run_result.ts";
import { writtenResult } from "../../_helpers/result_fixtures.ts";

/** The sample result (warm 1 s, main 2 s) with `contention` measured. */
function measured(contention: RunContention): RunResult {
  const result = writtenResult();
  result.health.contention = contention;
  return result;
}

Deno.test("contentionSentence() names the service, its wait over the measured stages and its worst second", () => {
  const text = contentionSentence(measured({
    source: "service",
    service: { found: "started", pids: [123, 124], name: "nginx" },
    pressureMs: 62,
    stealMs: 0,
    serviceWaitMs: 412,
    share: 0.4,
    worst: { startMs: 2000, waitMs: 349 },
  }));
  assert.equal(
    text,
    "the service (nginx, pids 123, 124) waited 412ms for a CPU over 2s (worst second 2s: 349ms); " +
      "CPU pressure 3.1%; steal 0ms",
  );
});

Deno.test("contentionSentence() counts the PIDs past the first four", () => {
  const text = contentionSentence(measured({
    source: "service",
    service: { found: "listening_socket", pids: [1, 2, 3, 4, 5, 6], name: "php-fpm" },
    serviceWaitMs: 0,
    share: 0,
  }));
  assert.equal(
    text,
    "the service (php-fpm, pids 1, 2, 3, 4 and 2 more) waited 0ms for a CPU over 2s",
  );
});

Deno.test("contentionSentence() gives the pressure when the service could not be seen", () => {
  const text = contentionSentence(measured({
    source: "pressure",
    pressureMs: 40,
    share: 0.04,
    worst: { startMs: 1000, waitMs: 30 },
  }));
  assert.equal(
    text,
    "the service's own threads could not be seen; CPU pressure 2.0% (40ms over 2s, worst second " +
      "1s: 30ms)",
  );
});

Deno.test("contentionSentence() says there is no measure of a service on another machine", () => {
  const text = contentionSentence(
    measured({ source: "none", pressureMs: 20, stealMs: 10, share: 0 }),
  );
  assert.equal(
    text,
    "no measure of the service's wait; this machine's CPU pressure 1.0%; steal 10ms",
  );
  assert.equal(
    contentionSentence(measured({ source: "none", share: 0 })),
    "no measure of the service's wait",
  );
});

Deno.test("contentionSentence() names the worst second by its start, the first one too", () => {
  const text = contentionSentence(measured({
    source: "service",
    serviceWaitMs: 20,
    share: 0.04,
    worst: { startMs: 0, waitMs: 19.3 },
  }));
  assert.equal(text, "the service waited 20ms for a CPU over 2s (worst second 0s: 19.3ms)");
});

Deno.test("contentionSentence() says nothing for a run that measured no contention", () => {
  assert.equal(contentionSentence(writtenResult()), undefined);
});
