/**
 * The Deno path, as the README documents it: `deno install -g` from a URL (served here from a copy
 * of the repository on 127.0.0.1, as a tag's raw files would be), then, with the server stopped
 * and the copy moved away, `tailgate --version`, `check` and a 2 s run from a folder outside the
 * repository: the installed command needs the deno on PATH and its cache, not the checkout. The
 * same from a checkout's path, which the command then runs in place.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTarget } from "../../mod.ts";
import denoJson from "../../deno.json" with { type: "json" };

const ROOT = new URL("../../", import.meta.url).pathname;
const SHIPPED = ["cli.ts", "mod.ts", "deno.json", "deno.lock", "runner", "reporters", "plans"];
const V8_FLAGS = /--v8-flags=\S+/.exec(denoJson.tasks.tailgate)![0];

async function run(cmd: string, args: string[], cwd: string, env: Record<string, string>) {
  const out = await new Deno.Command(cmd, { args, cwd, env, stdout: "piped", stderr: "piped" })
    .output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), all: text(out.stdout) + text(out.stderr) };
}

/** Serves `dir` as a code host does (TypeScript as TypeScript), on a free loopback port. */
function fileServer(dir: string) {
  return Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname);
    try {
      const body = await Deno.readFile(join(dir, path));
      const type = path.endsWith(".ts")
        ? "application/typescript"
        : path.endsWith(".json")
        ? "application/json"
        : "text/plain";
      return new Response(body, { headers: { "content-type": type } });
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
}

Deno.test("deno install -g from a URL runs with the checkout gone; from a checkout, in place", async () => {
  const work = await Deno.makeTempDir({ prefix: "tailgate-install-" });
  try {
    const checkout = join(work, "checkout");
    await Deno.mkdir(checkout);
    for (const f of SHIPPED) {
      await new Deno.Command("cp", { args: ["-r", join(ROOT, f), checkout] }).output();
    }
    // The shim runs `deno`: a PATH with this deno on it, and a cache of the install's own.
    const bin = join(work, "deno-bin");
    await Deno.mkdir(bin);
    await Deno.symlink(Deno.execPath(), join(bin, "deno"));
    const env = { PATH: `${bin}:/usr/bin:/bin`, DENO_DIR: join(work, "deno-dir"), NO_COLOR: "1" };
    const server = fileServer(checkout);
    const url = `http://127.0.0.1:${server.addr.port}/cli.ts`;
    const root = join(work, "root");
    const install = (from: string, name: string) =>
      run(
        "deno",
        ["install", "-g", "-A", "-f", "-n", name, "--root", root, V8_FLAGS, from],
        work,
        env,
      );
    const fromUrl = await install(url, "tailgate");
    await server.shutdown();
    assert.equal(fromUrl.code, 0, fromUrl.all);
    const moved = join(work, "moved");
    await Deno.rename(checkout, moved);

    const tailgate = join(root, "bin", "tailgate");
    const version = await run(tailgate, ["--version"], work, env);
    assert.equal(version.code, 0, version.all);
    assert.match(version.stdout, new RegExp(`^tailgate ${denoJson.version} `));
    const check = await run(
      tailgate,
      ["check", join(moved, "plans/examples/smoke.yaml")],
      work,
      env,
    );
    assert.equal(check.code, 0, check.all);
    await using target = await startTarget({ mode: "hello", port: 0 });
    const out = join(work, "out");
    const adHoc = ["run", `${target.url}/`, "--rate", "50/s", "--duration", "2s", "--out", out];
    const measured = await run(tailgate, adHoc, work, env);
    assert.equal(measured.code, 0, measured.all);
    const result = JSON.parse(await Deno.readTextFile(join(out, "result.json")));
    assert.equal(result.totals.counts.completed, 100);

    // From a checkout's path the command runs that checkout's files, wherever it is called from.
    const fromPath = await install(join(moved, "cli.ts"), "tailgate-local");
    assert.equal(fromPath.code, 0, fromPath.all);
    const local = await run(join(root, "bin", "tailgate-local"), ["--version"], work, env);
    assert.equal(local.code, 0, local.all);
    assert.match(await Deno.readTextFile(join(root, "bin", "tailgate-local")), /moved\/cli\.ts/);
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});
