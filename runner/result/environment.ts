/**
 * The environment fingerprint stored with every result: versions, CPU, cores, git commit, CI.
 * The I/O edge of the result code (reads /proc/cpuinfo and asks git).
 *
 * @module
 */
import { TAILGATE_VERSION } from "../version.ts";
import type { Environment } from "../model/run_result.ts";

/**
 * Collects the fingerprint of this machine and checkout. Never throws: what cannot be read is
 * left out or marked `unknown`.
 */
export async function collectEnvironment(cwd: string = Deno.cwd()): Promise<Environment> {
  const gitSha = await readGitSha(cwd);
  const ci = detectCi((name) => Deno.env.get(name));
  return {
    tailgateVersion: TAILGATE_VERSION,
    denoVersion: Deno.version.deno,
    v8Version: Deno.version.v8,
    os: Deno.build.os,
    arch: Deno.build.arch,
    cpuModel: await readCpuModel(),
    cores: navigator.hardwareConcurrency,
    ...(gitSha ? { gitSha } : {}),
    ...(ci ? { ci } : {}),
  };
}

/**
 * Names the CI system from its environment variables, or undefined outside CI.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectCi } from "./environment.ts";
 * assert.equal(detectCi((n) => n === "GITHUB_ACTIONS" ? "true" : undefined), "github-actions");
 * ```
 */
export function detectCi(env: (name: string) => string | undefined): string | undefined {
  if (env("GITHUB_ACTIONS") === "true") return "github-actions";
  if (env("GITLAB_CI")) return "gitlab-ci";
  if (env("JENKINS_URL")) return "jenkins";
  if (env("BUILDKITE")) return "buildkite";
  if (env("CIRCLECI")) return "circleci";
  if (env("CI")) return "ci";
  return undefined;
}

/**
 * Reads the CPU model name from /proc/cpuinfo text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cpuModelFrom } from "./environment.ts";
 * assert.equal(cpuModelFrom("model name\t: AMD EPYC 7B13\n"), "AMD EPYC 7B13");
 * ```
 */
export function cpuModelFrom(cpuinfo: string): string | undefined {
  const m = /^(?:model name|Hardware|Processor|cpu model)\s*:\s*(.+)$/m.exec(cpuinfo);
  return m?.[1].trim();
}

async function readCpuModel(): Promise<string> {
  try {
    return cpuModelFrom(await Deno.readTextFile("/proc/cpuinfo")) ?? "unknown";
  } catch {
    return "unknown";
  }
}

async function readGitSha(cwd: string): Promise<string | undefined> {
  try {
    const out = await new Deno.Command("git", {
      args: ["rev-parse", "HEAD"],
      cwd,
      stdout: "piped",
      stderr: "null",
    }).output();
    const sha = new TextDecoder().decode(out.stdout).trim();
    return out.success && /^[0-9a-f]{40}$/.test(sha) ? sha : undefined;
  } catch {
    return undefined;
  }
}
