#!/usr/bin/env node
// The `tailgate` command of the npm package: runs the package's cli.ts with the Deno binary of the
// `deno` npm package it depends on (pinned), with the V8 flags `deno task tailgate` uses. Signals
// are passed on exactly once: deno runs in a process group of its own, so a terminal's Ctrl-C
// reaches it only through this launcher (a second Ctrl-C still means "now"), and a CI runner's
// SIGTERM to this process reaches it too. The exit code (or the signal) is tailgate's own.
// The lockfile is deno.runtime.lock, frozen: Deno installs every npm package of the lockfile it
// runs with, and deno.lock also locks the test tools; the runtime lock holds tailgate's own
// packages alone (ci/release/runtime_lock.ts derives it), and frozen, nothing is written to the
// package's folder and nothing unlocked is fetched.
"use strict";

const { spawn } = require("node:child_process");
const path = require("node:path");

const root = path.join(__dirname, "..");
// The `deno` package resolves its platform's binary (an optional dependency npm installed).
const deno = require("deno/install_api.cjs").runInstall();
const denoJson = require(path.join(root, "deno.json"));
const v8Flags = /--v8-flags=(\S+)/.exec(denoJson.tasks.tailgate)[1];

const child = spawn(
  deno,
  [
    "run",
    `--v8-flags=${v8Flags}`,
    "--allow-all",
    "--config",
    path.join(root, "deno.json"),
    `--lock=${path.join(root, "deno.runtime.lock")}`,
    "--frozen",
    path.join(root, "cli.ts"),
    ...process.argv.slice(2),
  ],
  // The package's package.json is npm's, not Deno's: without this Deno would fetch the `deno`
  // dependency (its binary) into its own cache too.
  { stdio: "inherit", detached: true, env: { ...process.env, DENO_NO_PACKAGE_JSON: "1" } },
);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("error", (e) => {
  console.error(`tailgate: cannot start deno (${deno}): ${e.message}`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});
