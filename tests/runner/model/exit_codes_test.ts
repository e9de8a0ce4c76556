import assert from "node:assert/strict";
import { EXIT_CODES, type ExitCode, withIoFailures } from "../../../runner/model/exit_codes.ts";

Deno.test("an I/O failure exits 5 over a pass, a failed gate and an invalid run; usage and an unreachable target stand", () => {
  const failures = ["report.html not written to out/report.html: No space left on device"];
  assert.equal(EXIT_CODES.ioFailed, 5);
  for (const code of [EXIT_CODES.ok, EXIT_CODES.gateFailed, EXIT_CODES.invalidRun]) {
    assert.equal(withIoFailures(code, failures), EXIT_CODES.ioFailed, `over ${code}`);
  }
  assert.equal(withIoFailures(EXIT_CODES.usage, failures), EXIT_CODES.usage);
  assert.equal(withIoFailures(EXIT_CODES.unreachable, failures), EXIT_CODES.unreachable);
  for (const code of Object.values(EXIT_CODES) as ExitCode[]) {
    assert.equal(withIoFailures(code, []), code, "nothing failed: the code stands");
  }
});
