import assert from "node:assert/strict";
import { join } from "node:path";
import { startTarget } from "../../../mod.ts";
import { searchCommand } from "../../../runner/cli/search_command.ts";
import { EXIT_CODES } from "../../../runner/model/exit_codes.ts";
import { freePort } from "../../_helpers/free_port.ts";
import { liveMembers, loggedGroup, serveCommand } from "../../_helpers/service_commands.ts";
import { loginPlan, loginServer, PASSWORD, TOKEN } from "../../_helpers/login_server.ts";

/**
 * A search of two short steps that both pass: a complete search that found a rate. Its SLO is a
 * loose latency bound, which sets each step's lateness limit at 200 ms: an error-rate SLO alone
 * keeps the 10 ms limit, and a 20-request step whose generator the whole suite holds back 10 ms
 * once is then inconclusive (run again, then the search ends inconclusive, exit 3). Errors are
 * still judged, by the implicit error gate.
 */
function tinySearch(url: string): string {
  return `name: tiny-search
target: ${url}
requests: [{ path: / }]
load: { connections: 4, stages: [{ rate: 10/s, duration: 1s }] }
slo: [p50 < 2s]
search: { from: 40/s, max: 80/s, step: 500ms, warmup: 100ms, cooldown: 0s, soak: 0s }
`;
}

Deno.test("tailgate search exits 5 when the history it should update cannot be written, naming it", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  const dir = await Deno.makeTempDir({ prefix: "tailgate-search-" });
  try {
    const plan = join(dir, "search.yaml");
    await Deno.writeTextFile(plan, tinySearch(target.url));
    // The history folder lies below a regular file: no history there, and none can be written.
    await Deno.writeTextFile(join(dir, "file"), "");
    const outcome = await searchCommand([
      plan,
      ...["--out", join(dir, "out"), "--baseline", join(dir, "file", "b"), "--update-baseline"],
    ], () => {});
    assert.equal(outcome.exitCode, EXIT_CODES.ioFailed, JSON.stringify(outcome));
    assert.equal(outcome.errors.length, 1);
    assert.match(
      outcome.errors[0],
      /^history not updated: cannot make the history folder .*file\/b/,
    );
    assert.match(outcome.output!, /sustainable rate at least 80\/s/, "the search still reports");
    assert.match(
      outcome.output!,
      /wrote .*search\.json\nwrote .*search\.md\nwrote .*search\.html$/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tailgate search refuses an out folder inside the baseline folder before searching", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-search-" });
  try {
    const plan = join(dir, "search.yaml");
    // Nothing listens there: the folders are refused before the target is tried.
    await Deno.writeTextFile(plan, tinySearch("http://127.0.0.1:9"));
    const baselines = join(dir, "baselines");
    const outcome = await searchCommand([
      plan,
      ...["--out", join(baselines, "out"), "--baseline", baselines],
    ], () => {});
    assert.equal(outcome.exitCode, EXIT_CODES.usage, JSON.stringify(outcome));
    assert.match(outcome.errors[0], /^--out .*baselines\/out lies in the baseline folder /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tailgate search names an untrusted certificate before its first step, and takes --ca-cert", async () => {
  const tls = new URL("../../testdata/tls/", import.meta.url);
  const cert = await Deno.readTextFile(new URL("cert.pem", tls));
  const key = await Deno.readTextFile(new URL("key.pem", tls));
  let requests = 0;
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert, key, onListen: () => {} },
    () => {
      requests++;
      return new Response("ok");
    },
  );
  const dir = await Deno.makeTempDir({ prefix: "tailgate-search-" });
  try {
    const plan = join(dir, "search.yaml");
    await Deno.writeTextFile(plan, tinySearch(`https://127.0.0.1:${server.addr.port}`));
    const out = ["--out", join(dir, "out"), "--no-baseline"];
    const untrusted = await searchCommand([plan, ...out], () => {});
    assert.equal(untrusted.exitCode, EXIT_CODES.unreachable, JSON.stringify(untrusted));
    assert.match(
      untrusted.errors[0],
      /the target's TLS certificate is not trusted: .*; pass --ca-cert FILE with the CA that signed it/,
    );
    assert.equal(requests, 0, "nothing is sent to an untrusted target");
    const pem = join(dir, "ca.pem");
    await Deno.writeTextFile(pem, cert);
    const trusted = await searchCommand([plan, ...out, "--ca-cert", pem], () => {});
    assert.equal(trusted.exitCode, EXIT_CODES.ok, JSON.stringify(trusted.errors));
    assert.ok(requests > 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("search --start starts the service, searches, and ends its group afterwards", async () => {
  const port = freePort();
  const dir = await Deno.makeTempDir({ prefix: "tailgate-search-" });
  try {
    const plan = join(dir, "search.yaml");
    await Deno.writeTextFile(plan, tinySearch(`http://127.0.0.1:${port}`));
    const out = join(dir, "out");
    const command = `echo "group $$"; ${serveCommand(port)}`;
    const outcome = await searchCommand(
      [plan, "--out", out, "--no-baseline", "--start", command, "--ready-timeout", "20s"],
      () => {},
    );
    assert.equal(outcome.exitCode, EXIT_CODES.ok, JSON.stringify(outcome));
    assert.match(outcome.output!, /sustainable rate at least 80\/s/);
    assert.deepEqual(
      liveMembers(await loggedGroup(join(out, "service.log"))),
      [],
      "the service's group is gone",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a --start service that exits mid-search ends it: exit 4, search.json written", async () => {
  const port = freePort();
  const dir = await Deno.makeTempDir({ prefix: "tailgate-search-" });
  try {
    const plan = join(dir, "search.yaml");
    // Steps of 10 s each: the search is still in its first step when the service exits.
    await Deno.writeTextFile(
      plan,
      tinySearch(`http://127.0.0.1:${port}`).replace("step: 500ms", "step: 10s"),
    );
    const out = join(dir, "out");
    const command = `echo "group $$"; (${serveCommand(port)}) & sleep 3; echo dying; exit 7`;
    const started = performance.now();
    const outcome = await searchCommand(
      [plan, "--out", out, "--no-baseline", "--start", command],
      () => {},
    );
    assert.ok(performance.now() - started < 12_000, "the search ended when the service did");
    assert.equal(outcome.exitCode, EXIT_CODES.unreachable, JSON.stringify(outcome));
    assert.match(outcome.errors[0], /exited with code 7 during the run; its last lines: .*dying/);
    const written = JSON.parse(await Deno.readTextFile(join(out, "search.json")));
    assert.equal(written.complete, false);
    assert.match(written.warnings[0], /the service .* exited with code 7/);
    assert.deepEqual(
      liveMembers(await loggedGroup(join(out, "service.log"))),
      [],
      "the service's group is gone",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("search --start exits 4 with its last lines when the service never gets ready", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-search-" });
  try {
    const plan = join(dir, "search.yaml");
    await Deno.writeTextFile(plan, tinySearch(`http://127.0.0.1:${freePort()}`));
    const out = join(dir, "out");
    const command = 'echo "group $$"; echo "still booting"; exec sleep 30';
    const outcome = await searchCommand(
      [plan, "--out", out, "--start", command, "--ready-timeout", "1s"],
      () => {},
    );
    assert.equal(outcome.exitCode, EXIT_CODES.unreachable, JSON.stringify(outcome));
    assert.match(outcome.errors[0], /^--start: `.*` did not answer .* within 1 s \(all of it in /);
    assert.match(
      outcome.notes.join("\n"),
      /^last 2 lines of .*service\.log:\n {2}group \d+\n {2}still booting$/,
    );
    assert.deepEqual(
      liveMembers(await loggedGroup(join(out, "service.log"))),
      [],
      "the service's group is gone",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("search starts the plan's service, says its wait, and ends it afterwards", async () => {
  const port = freePort();
  const dir = await Deno.makeTempDir({ prefix: "tailgate-search-" });
  try {
    const plan = join(dir, "search.yaml");
    const command = `echo "group $$"; ${serveCommand(port)}`;
    await Deno.writeTextFile(
      plan,
      tinySearch(`http://127.0.0.1:${port}`) +
        `service: { start: ${JSON.stringify(command)}, ready: ${port}, timeout: 20s }\n`,
    );
    const out = join(dir, "out");
    const progress: string[] = [];
    const outcome = await searchCommand(
      [plan, "--out", out, "--no-baseline"],
      (line) => progress.push(line),
    );
    assert.equal(outcome.exitCode, EXIT_CODES.ok, JSON.stringify(outcome));
    assert.ok(
      progress.some((l) => l.endsWith(`(waiting for 127.0.0.1:${port} to accept a connection)`)),
      progress.join("\n"),
    );
    assert.ok(progress.some((l) => /^ready after \d+\.\ds$/.test(l)), progress.join("\n"));
    assert.deepEqual(liveMembers(await loggedGroup(join(out, "service.log"))), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** The issue's login plan with tinySearch's search: two short steps. */
function loginSearch(url: string): string {
  return loginPlan(url, tinySearch(url).split("\n").slice(3).join("\n"));
}

Deno.test("search with setup: every step is a fresh run that logs in, sends the token and tears down", async () => {
  const target = loginServer();
  const dir = await Deno.makeTempDir({ prefix: "tailgate-search-" });
  Deno.env.set("API_PASSWORD", PASSWORD);
  try {
    const plan = join(dir, "search.yaml");
    await Deno.writeTextFile(plan, loginSearch(target.url));
    const outcome = await searchCommand(
      [plan, "--out", join(dir, "out"), "--no-baseline"],
      () => {},
    );
    assert.notEqual(outcome.exitCode, EXIT_CODES.unreachable, JSON.stringify(outcome));
    assert.notEqual(outcome.exitCode, EXIT_CODES.usage, JSON.stringify(outcome));
    const search = JSON.parse(await Deno.readTextFile(join(dir, "out", "search.json")));
    const logins = target.seen.filter((s) => s.path === "/login").length;
    const logouts = target.seen.filter((s) => s.method === "DELETE").length;
    assert.ok(search.steps.length >= 2, JSON.stringify(search.steps));
    assert.equal(logins, search.steps.length, "one login per step");
    assert.equal(logouts, search.steps.length, "one teardown per step");
    const orders = target.seen.filter((s) => s.path === "/orders");
    assert.ok(orders.length > 0 && orders.every((s) => s.auth === `Bearer ${TOKEN}`));
  } finally {
    Deno.env.delete("API_PASSWORD");
    await target.server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a search step whose setup fails ends the search: exit 4, the steps before it kept", async () => {
  const target = loginServer({ loginsAllowed: 1 });
  const dir = await Deno.makeTempDir({ prefix: "tailgate-search-" });
  Deno.env.set("API_PASSWORD", PASSWORD);
  try {
    const plan = join(dir, "search.yaml");
    await Deno.writeTextFile(plan, loginSearch(target.url));
    const out = join(dir, "out");
    const outcome = await searchCommand([plan, "--out", out, "--no-baseline"], () => {});
    assert.equal(outcome.exitCode, EXIT_CODES.unreachable, JSON.stringify(outcome));
    assert.match(
      outcome.errors[0],
      /^\d+\/s step: setup step `login` \(POST .*\) answered 503 \(expected 200\).*; what was measured is in .*search\.json$/,
    );
    assert.ok(!outcome.errors[0].includes(PASSWORD));
    const search = JSON.parse(await Deno.readTextFile(join(out, "search.json")));
    assert.equal(search.steps.length, 1, "the step before the failed login is kept");
    assert.equal(search.complete, false);
    assert.match(search.setupFailure, /answered 503/);
    assert.equal(target.seen.filter((s) => s.path === "/login").length, 2);
  } finally {
    Deno.env.delete("API_PASSWORD");
    await target.server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
