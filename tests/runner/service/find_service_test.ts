import assert from "node:assert/strict";
import { findService, processNames, servedInProcess } from "../../../runner/service/mod.ts";

const LINUX = Deno.build.os === "linux";

/**
 * A server in a child process, listening on port 0 of `hostname`: the child and its port; with
 * `["setsid"]`, the child leads a process group of its own.
 */
async function childServer(hostname: string, prefix: string[] = []) {
  const [command, ...args] = [...prefix, Deno.execPath()];
  const child = new Deno.Command(command, {
    args: [
      ...args,
      "eval",
      `const l = Deno.listen({ hostname: ${JSON.stringify(hostname)}, port: 0 });` +
      "console.log(l.addr.port); for await (const c of l) c.close();",
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  reader.releaseLock();
  return { child, port: Number(text.trim()) };
}

async function stop(child: Deno.ChildProcess) {
  child.kill("SIGKILL");
  await child.status;
  await child.stdout.cancel().catch(() => {});
}

Deno.test({
  name: "findService() finds the process that holds a loopback target's listening socket",
  ignore: !LINUX,
  async fn() {
    const { child, port } = await childServer("127.0.0.1");
    try {
      assert.ok(port > 0);
      for (const host of ["127.0.0.1", "localhost"]) {
        const found = findService({ url: new URL(`http://${host}:${port}/`) });
        assert.ok(found, host);
        assert.equal(found.found, "listening_socket");
        assert.deepEqual(found.pids, [child.pid]);
        assert.equal(found.name, "deno");
      }
    } finally {
      await stop(child);
    }
  },
});

Deno.test({
  name: "findService() finds nothing on a free port or for a target on another machine",
  ignore: !LINUX,
  async fn() {
    const { child, port } = await childServer("127.0.0.1");
    await stop(child); // its port is free now
    assert.equal(findService({ url: new URL(`http://127.0.0.1:${port}/`) }), undefined);
    assert.equal(findService({ url: new URL("http://192.0.2.1:80/") }), undefined);
  },
});

Deno.test({
  name: "findService() finds nothing where /proc does not show the socket",
  async fn() {
    const empty = await Deno.makeTempDir();
    try {
      assert.equal(findService({ url: new URL("http://127.0.0.1:8080/") }, empty), undefined);
    } finally {
      await Deno.remove(empty, { recursive: true });
    }
  },
});

Deno.test({
  name: "findService() takes the live processes of the group tailgate started, by name",
  ignore: !LINUX,
  async fn() {
    const child = new Deno.Command("setsid", {
      args: ["sleep", "30"],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      const remote = new URL("http://192.0.2.1:80/");
      let found = findService({ url: remote, pgid: child.pid });
      for (let i = 0; i < 200 && found?.name !== "sleep"; i++) {
        await new Promise((r) => setTimeout(r, 10));
        found = findService({ url: remote, pgid: child.pid });
      }
      assert.deepEqual(found, { found: "started", pids: [child.pid], name: "sleep" });
    } finally {
      child.kill("SIGKILL");
      await child.status;
    }
    assert.equal(findService({ url: new URL("http://192.0.2.1:80/"), pgid: child.pid }), undefined);
  },
});

Deno.test({
  name: "processNames() joins the distinct names in PID order, ? when none can be read",
  ignore: !LINUX,
  fn() {
    assert.equal(processNames([Deno.pid, Deno.pid]), "deno");
    assert.equal(processNames([2 ** 22 + 1]), "?");
  },
});

/** A procfs stand-in: a LISTEN socket on 127.0.0.1:8080 (inode 4242) and processes by name. */
async function fakeProc(holders: Record<number, string>): Promise<string> {
  const root = await Deno.makeTempDir();
  await Deno.mkdir(`${root}/net`);
  await Deno.writeTextFile(
    `${root}/net/tcp`,
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n" +
      "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242 1\n",
  );
  for (const [pid, comm] of Object.entries(holders)) {
    await Deno.mkdir(`${root}/${pid}/fd`, { recursive: true });
    await Deno.writeTextFile(`${root}/${pid}/comm`, `${comm}\n`);
    await Deno.symlink("/dev/null", `${root}/${pid}/fd/0`);
    await Deno.symlink("socket:[4242]", `${root}/${pid}/fd/3`);
  }
  await Deno.mkdir(`${root}/999/fd`, { recursive: true }); // holds nothing
  return root;
}

Deno.test({
  name: "findService() takes every holder of the socket, in PID order",
  ignore: Deno.build.os === "windows",
  async fn() {
    const root = await fakeProc({ 120: "nginx", 101: "nginx" });
    try {
      assert.deepEqual(findService({ url: new URL("http://127.0.0.1:8080/") }, root), {
        found: "listening_socket",
        pids: [101, 120],
        name: "nginx",
      });
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "findService() finds nothing when only a container's proxy holds the socket",
  ignore: Deno.build.os === "windows",
  async fn() {
    const root = await fakeProc({ 100: "docker-proxy" });
    try {
      assert.equal(findService({ url: new URL("http://127.0.0.1:8080/") }, root), undefined);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "findService() passes over a started group that does not hold the target's socket",
  ignore: !LINUX,
  async fn() {
    // `--start "docker run -p …"`: the group holds a client, another process serves the port.
    const { child, port } = await childServer("127.0.0.1");
    const group = new Deno.Command("setsid", {
      args: ["sleep", "30"],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      const url = new URL(`http://127.0.0.1:${port}/`);
      assert.deepEqual(findService({ url, pgid: group.pid })?.pids, [child.pid]);
      assert.equal(findService({ url, pgid: group.pid })?.found, "listening_socket");
    } finally {
      group.kill("SIGKILL");
      await group.status;
      await stop(child);
    }
  },
});

Deno.test({
  name: "findService() keeps a started group that holds the target's socket",
  ignore: !LINUX,
  async fn() {
    const { child, port } = await childServer("127.0.0.1", ["setsid"]);
    try {
      const found = findService({ url: new URL(`http://127.0.0.1:${port}/`), pgid: child.pid });
      assert.equal(found?.found, "started");
      assert.ok(found?.pids.includes(child.pid));
    } finally {
      await stop(child);
    }
  },
});

Deno.test({
  name: "a target tailgate serves itself is no service apart from it: no PIDs, served in process",
  ignore: !LINUX,
  async fn() {
    // The built-in target and a test's server run in tailgate's own process: their threads' wait
    // is the generator's own, which the measured floor counts, never a service's.
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () => new Response("ok"),
    );
    try {
      const url = new URL(`http://127.0.0.1:${server.addr.port}/`);
      assert.equal(findService({ url }), undefined);
      assert.equal(servedInProcess(url), true);
    } finally {
      await server.shutdown();
    }
    const { child, port } = await childServer("127.0.0.1");
    try {
      assert.equal(servedInProcess(new URL(`http://127.0.0.1:${port}/`)), false);
    } finally {
      await stop(child);
    }
  },
});
