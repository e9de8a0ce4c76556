import assert from "node:assert/strict";
import { awaitListening, spawnTarget } from "../../../runner/target/spawn_target.ts";

function child(script: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    stdout: "piped",
    stderr: "null",
    stdin: "null",
  }).spawn();
}

Deno.test("spawnTarget resolves with the URL the target prints, and stop() ends it", async () => {
  const target = await spawnTarget(["--mode", "hello"]);
  assert.match(target.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  const response = await fetch(target.url);
  await response.body?.cancel();
  assert.equal(response.status, 200);
  await target.stop();
  await assert.rejects(fetch(target.url));
});

Deno.test("awaitListening rejects with what a child printed when it exits without listening", async () => {
  await assert.rejects(
    awaitListening(child('console.log("port 80 is taken")'), /listening on (\S+) /, "the X server"),
    /the X server did not start: port 80 is taken/,
  );
  await assert.rejects(
    awaitListening(child(""), /listening on (\S+) /, "the X server"),
    /the X server did not start: no output/,
  );
});

Deno.test("awaitListening finds the URL however the child's output is cut", async () => {
  const target = await awaitListening(
    child(
      'await Deno.stdout.write(new TextEncoder().encode("listening on https://x"));' +
        "await new Promise((r) => setTimeout(r, 50));" +
        'console.log(":1 (tls)"); setInterval(() => {}, 1000);',
    ),
    /listening on (https:\/\/\S+) /,
    "the TLS target",
  );
  assert.equal(target.url, "https://x:1");
  await target.stop();
});
