/**
 * Setup, capture and teardown end to end through the CLI, against an in-process recording server:
 * the login's token reaches every measured request, the teardown runs (after a pass, a failed gate
 * and a stop), setup failures end the run before any load with exit 4, and no secret reaches any
 * file in the out folder.
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import { join } from "node:path";
import { main } from "../../../cli.ts";
import { secretForms, shownBody } from "../../../runner/session/mod.ts";
import { capture } from "../../_helpers/cli_capture.ts";

import {
  loginPlan,
  loginServer as recordingServer,
  PASSWORD,
  SESSION,
  TOKEN,
} from "../../_helpers/login_server.ts";

function planText(target: string, slo = "p99 < 1s"): string {
  return loginPlan(
    target,
    `load:
  connections: 2
  stages: [{ rate: 50/s, duration: 1s }]
slo: [${slo}]
`,
  );
}

async function run(plan: string, extra: string[] = [], signal?: AbortSignal) {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "plan.yaml");
  await Deno.writeTextFile(path, plan);
  const out = join(dir, "out");
  const io = capture();
  Deno.env.set("API_PASSWORD", PASSWORD);
  try {
    const code = await main(
      ["run", path, "--out", out, "--no-baseline", "--report", "all", ...extra],
      io,
      signal,
    );
    return { code, io, dir, out, text: [...io.out, ...io.err].join("\n") };
  } finally {
    Deno.env.delete("API_PASSWORD");
  }
}

/** Every file under `dir`, as text. */
async function filesUnder(dir: string): Promise<Array<[string, string]>> {
  const files: Array<[string, string]> = [];
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) files.push(...await filesUnder(p));
    else files.push([p, new TextDecoder().decode(await Deno.readFile(p))]);
  }
  return files;
}

Deno.test("the token a setup step captures reaches every measured request, and teardown runs", async () => {
  const target = recordingServer({});
  const r = await run(planText(target.url).replace(/^slo: .*$/m, ""));
  try {
    assert.equal(r.code, 0, r.text);
    const login = target.seen.filter((s) => s.path === "/login");
    assert.equal(login.length, 1, "setup runs once");
    assert.deepEqual(JSON.parse(login[0].body), { user: "ci", password: PASSWORD });
    const orders = target.seen.filter((s) => s.path === "/orders");
    assert.equal(orders.length, 50);
    assert.ok(orders.every((s) => s.auth === `Bearer ${TOKEN}`), "every request carries the token");
    const teardown = target.seen.filter((s) => s.method === "DELETE");
    assert.deepEqual(teardown.map((s) => s.path), [
      `/sessions/${encodeURIComponent("sid=s3ss-42")}`,
    ]);
    assert.ok(
      target.seen.indexOf(teardown[0]) > target.seen.indexOf(orders.at(-1)!),
      "after the load",
    );
    const result = JSON.parse(await Deno.readTextFile(join(r.out, "result.json")));
    // Setup and teardown are not measured: the histograms hold the 50 orders only.
    assert.equal(result.totals.counts.completed, 50);
    assert.deepEqual(
      result.steps.map((s: { section: string; name: string; status: number; ok: boolean }) => [
        s.section,
        s.name,
        s.status,
        s.ok,
      ]),
      [["setup", "login", 200, true], ["teardown", "DELETE /sessions/{{session}}", 204, true]],
    );
    assert.deepEqual(result.steps[0].captures, [
      { name: "token", from: "json /access_token" },
      { name: "session", from: "header set-cookie" },
    ]);
    const files = await filesUnder(r.out);
    assert.ok(files.length >= 5, files.map(([p]) => p).join(", "));
    for (const [file, text] of files) {
      for (const secret of [PASSWORD, TOKEN, SESSION]) {
        assert.ok(!text.includes(secret), `${file} holds a secret`);
      }
    }
    assert.match(
      await Deno.readTextFile(join(r.out, "summary.md")),
      /setup: login .* token \(json \/access\\_token\), session \(header set-cookie\)/,
    );
    assert.ok(!r.text.includes(TOKEN) && !r.text.includes(PASSWORD));
  } finally {
    await target.server.shutdown();
    await Deno.remove(r.dir, { recursive: true });
  }
});

Deno.test("a setup step answering 401 ends the run before any load: exit 4, status and body, no secret", async () => {
  const target = recordingServer({ loginStatus: 401 });
  const r = await run(planText(target.url));
  try {
    assert.equal(r.code, 4, r.text);
    assert.match(r.text, /setup step `login` \(POST .*\/login\) answered 401 \(expected 200\)/);
    assert.match(r.text, /its body: .*no login for \*\*\*, see \/help/);
    assert.ok(!r.text.includes(PASSWORD), r.text);
    assert.deepEqual(target.seen.map((s) => s.path), ["/login"], "no load and no teardown");
    await assert.rejects(Deno.stat(join(r.out, "result.json")));
  } finally {
    await target.server.shutdown();
    await Deno.remove(r.dir, { recursive: true });
  }
});

Deno.test("a capture whose pointer finds nothing is named, with the step: exit 4", async () => {
  const target = recordingServer({ tokenKey: "token" });
  const r = await run(planText(target.url));
  try {
    assert.equal(r.code, 4, r.text);
    assert.match(
      r.text,
      /setup step `login` .* captured no `token` \(json \/access_token\): the response's JSON has nothing at `\/access_token` \(at its root, an object with "token"\)/,
    );
    assert.ok(!r.text.includes(TOKEN), "the body's values are not shown, only its shape");
    assert.equal(target.seen.filter((s) => s.path === "/orders").length, 0);
  } finally {
    await target.server.shutdown();
    await Deno.remove(r.dir, { recursive: true });
  }
});

Deno.test("a login answer cut at the read limit never shows its token: it says the body was cut", async () => {
  // 1.5 MiB of JSON with the token first: cut at 1 MiB it parses as nothing, and its first
  // characters are the token itself.
  const target = recordingServer({ padBytes: 1.5 * 1024 * 1024 });
  const r = await run(planText(target.url));
  try {
    assert.equal(r.code, 4, r.text);
    assert.match(
      r.text,
      /captured no `token` \(json \/access_token\): the response body passed the 1 MiB a step reads, so it was cut/,
    );
    assert.ok(!r.text.includes(TOKEN), "the cut body is not shown");
    for (const [path, text] of await filesUnder(r.dir)) {
      assert.ok(!text.includes(TOKEN), `${path} holds the token`);
    }
  } finally {
    await target.server.shutdown();
    await Deno.remove(r.dir, { recursive: true });
  }
});

Deno.test("teardown runs after a failed gate, and its failure is a warning that leaves the verdict", async () => {
  const target = recordingServer({ ordersMs: 30 });
  const plan = planText(target.url, "p50 < 1ms").replace(
    '- { method: DELETE, path: "/sessions/{{session}}" }',
    '- { method: DELETE, path: "/sessions/{{session}}", expect: 200 }',
  );
  const r = await run(plan);
  try {
    assert.equal(r.code, 1, r.text);
    assert.equal(target.seen.filter((s) => s.method === "DELETE").length, 1);
    const result = JSON.parse(await Deno.readTextFile(join(r.out, "result.json")));
    assert.equal(result.verdict.status, "fail");
    assert.ok(
      result.warnings.some((w: string) => /teardown step .* answered 204 \(expected 200\)/.test(w)),
      JSON.stringify(result.warnings),
    );
  } finally {
    await target.server.shutdown();
    await Deno.remove(r.dir, { recursive: true });
  }
});

Deno.test("a run stopped part-way still sends its teardown and keeps what it measured: exit 3", async () => {
  const target = recordingServer({});
  const stop = new AbortController();
  const plan = planText(target.url).replace("duration: 1s", "duration: 20s");
  // Stopped once the load is under way (20 orders answered), as Ctrl-C would.
  const timer = setInterval(() => {
    if (target.seen.filter((s) => s.path === "/orders").length >= 20) stop.abort();
  }, 20);
  const r = await run(plan, [], stop.signal);
  clearInterval(timer);
  try {
    assert.equal(r.code, 3, r.text);
    assert.equal(target.seen.filter((s) => s.method === "DELETE").length, 1, "teardown ran");
    const result = JSON.parse(await Deno.readTextFile(join(r.out, "result.json")));
    assert.equal(result.run.complete, false);
    assert.ok(result.totals.counts.completed > 0 && result.totals.counts.completed < 1000);
    assert.deepEqual(result.steps.map((s: { section: string }) => s.section), [
      "setup",
      "teardown",
    ]);
  } finally {
    await target.server.shutdown();
    await Deno.remove(r.dir, { recursive: true });
  }
});

Deno.test("a stop during setup sends no load and no teardown: exit 3, nothing written", async () => {
  const target = recordingServer({ loginMs: 3000 });
  const stop = new AbortController();
  // Stopped once the login has arrived, as Ctrl-C would: a fixed 300 ms from the start could come
  // before the login on a busy machine, while the plan was still being read.
  let stoppedAt = 0;
  const timer = setInterval(() => {
    if (stoppedAt === 0 && target.seen.some((s) => s.path === "/login")) {
      stoppedAt = performance.now();
      stop.abort();
    }
  }, 10);
  const r = await run(planText(target.url), [], stop.signal);
  const endedAt = performance.now();
  clearInterval(timer);
  try {
    assert.equal(r.code, 3, r.text);
    assert.ok(stoppedAt > 0, "the login arrived");
    // The login answers 3 s after it arrived: a run that waited for it ends ~3 s after the stop.
    assert.ok(endedAt - stoppedAt < 2000, "the login was not waited for");
    assert.match(r.text, /stopped during setup; no load was sent/);
    assert.deepEqual(target.seen.map((s) => s.path), ["/login"]);
    await assert.rejects(Deno.stat(join(r.out, "result.json")));
  } finally {
    await target.server.shutdown();
    await Deno.remove(r.dir, { recursive: true });
  }
});

Deno.test("a shown body or error blots a secret out in every form a request carries it", () => {
  const secrets = secretForms(['tok/1 "x"', "pw"]);
  const text = `{"t":"tok/1 \\"x\\""} GET /s/${encodeURIComponent('tok/1 "x"')} pw`;
  assert.equal(shownBody(text, secrets), JSON.stringify('{"t":"***"} GET /s/*** ***'));
  assert.equal(shownBody("", secrets), "(empty)");
  assert.equal(shownBody("x".repeat(300), []).length, 2 + 200 + 1, "200 characters and a mark");
});

/** The login service's routes on node:http2 without TLS: it speaks only h2c (prior knowledge). */
async function h2cLoginServer() {
  const seen: Array<{ method: string; path: string; version: string }> = [];
  const server = http2.createServer();
  server.on("request", (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => {
    let body = "";
    req.on("data", (chunk: Uint8Array) => body += new TextDecoder().decode(chunk));
    req.on("end", () => {
      const path = new URL(req.url, "http://x").pathname;
      seen.push({ method: req.method, path, version: req.httpVersion });
      if (path === "/login") {
        const ok = JSON.parse(body).password === PASSWORD;
        res.writeHead(ok ? 200 : 401, { "set-cookie": `sid=${SESSION}; Path=/` });
        res.end(ok ? JSON.stringify({ access_token: TOKEN }) : "{}");
      } else if (path === "/orders") {
        res.writeHead(req.headers.authorization === `Bearer ${TOKEN}` ? 200 : 403);
        res.end("ok");
      } else {
        res.writeHead(path.startsWith("/sessions/") ? 204 : 404);
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    seen,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const H2_LOAD = `load:
  http: 2
  connections: 1
  stages: [{ rate: 20/s, duration: 1s }]
`;

Deno.test("under load.http: 2 over h2c, setup and teardown are sent in HTTP/2 to an h2c-only target", async () => {
  const target = await h2cLoginServer();
  const r = await run(planText(target.url).replace(/^load:[\s\S]*$/m, H2_LOAD));
  try {
    assert.equal(r.code, 0, r.text);
    const result = JSON.parse(await Deno.readTextFile(join(r.out, "result.json")));
    assert.deepEqual(
      result.steps.map((s: { name: string; status: number; ok: boolean }) => [s.name, s.status]),
      [["login", 200], ["DELETE /sessions/{{session}}", 204]],
    );
    const warnings: string[] = result.warnings ?? [];
    assert.ok(!warnings.some((w) => w.includes("teardown")), warnings.join("\n"));
    assert.equal(
      target.seen.filter((s) => s.path === "/orders").length,
      20,
      "the token reached the load",
    );
    assert.ok(target.seen.every((s) => s.version === "2.0"));
  } finally {
    await target.close();
    await Deno.remove(r.dir, { recursive: true });
  }
});

Deno.test("under load.http: 2, a step to another origin is sent as fetch agrees with it: HTTP/1.1 here", async () => {
  const target = await h2cLoginServer();
  const login = recordingServer({});
  const plan = planText(target.url).replace("path: /login", `url: ${login.url}/login`)
    .replace(/^load:[\s\S]*$/m, H2_LOAD);
  const r = await run(plan);
  try {
    assert.equal(r.code, 0, r.text);
    assert.deepEqual(login.seen.map((s) => s.path), ["/login"]);
    assert.deepEqual(target.seen.filter((s) => s.method === "DELETE").length, 1, "teardown in h2c");
  } finally {
    await login.server.shutdown();
    await target.close();
    await Deno.remove(r.dir, { recursive: true });
  }
});

Deno.test("a stop while a teardown step waits ends it and sends no other: one warning, exit 3", async () => {
  const paths: string[] = [];
  const stop = new AbortController();
  const { promise: released, resolve: release } = Promise.withResolvers<void>();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    paths.push(path);
    // The first teardown step is never answered: stopped once it arrived, as Ctrl-C would.
    if (path === "/first") (stop.abort(), await released);
    return new Response("ok");
  });
  const plan = `name: stopped-teardown
target: http://127.0.0.1:${server.addr.port}
requests: [{ path: / }]
load: { connections: 2, stages: [{ rate: 20/s, duration: 1s }] }
teardown:
  - { name: first, method: DELETE, path: /first, timeout: 60s }
  - { name: second, method: DELETE, path: /second }
`;
  const r = await run(plan, [], stop.signal);
  try {
    assert.equal(r.code, 3, r.text);
    assert.ok(!paths.includes("/second"), "no step after the stopped one is sent");
    const result = JSON.parse(await Deno.readTextFile(join(r.out, "result.json")));
    assert.equal(result.run.complete, true);
    assert.deepEqual(result.steps.map((s: { name: string; ok: boolean }) => [s.name, s.ok]), [
      ["first", false],
    ]);
    const teardown = result.warnings.filter((w: string) => w.startsWith("teardown"));
    assert.deepEqual(teardown, [
      `teardown step \`first\` (DELETE http://127.0.0.1:${server.addr.port}/first) was stopped ` +
      "before it was answered; not sent: `second`",
    ]);
    assert.match(r.text, /stopped during the teardown/);
  } finally {
    release();
    await server.shutdown();
    await Deno.remove(r.dir, { recursive: true });
  }
});
