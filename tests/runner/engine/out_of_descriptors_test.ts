import assert from "node:assert/strict";
import { openLibcNet } from "../../../runner/engine/native/libc_net.ts";
import { startTargetProcess } from "../../_helpers/target_process.ts";

const SCRIPT = new URL("../../testdata/scripts/run_plan_with_few_descriptors.ts", import.meta.url)
  .pathname;

Deno.test({
  name: "running out of file descriptors mid-run is named, not just counted as errors `other`",
  // The native path names it; Deno's own sockets panic inside Deno under EMFILE.
  ignore: openLibcNet() === undefined,
  async fn() {
    await using target = await startTargetProcess(["--mode", "hello"]);
    const output = await new Deno.Command("bash", {
      args: [
        "-c",
        `ulimit -n 80 && exec "$0" run -A "$1" "$2"`,
        Deno.execPath(),
        SCRIPT,
        target.url,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(output.stdout).trim();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    const said = JSON.parse(stdout.split("\n").at(-1)!);
    assert.equal(said.completed, 60, stdout);
    assert.ok(said.other > 0, `some connects must have failed: ${stdout}`);
    assert.equal(said.ok + said.other, 60, stdout);
    assert.equal(said.outOfDescriptors, true, stdout);
    assert.match(said.notices.join("\n"), /too many open files \(EMFILE\)/);
  },
});
