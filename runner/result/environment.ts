/**
 * The environment fingerprint stored with every result: versions, CPU, cores, git commit and
 * branch, CI. The I/O edge of the result code (reads /proc/cpuinfo and asks git: git_refs.ts).
 *
 * @module
 */
import { TAILGATE_VERSION } from "../version.ts";
import type { Environment } from "../model/mod.ts";
import { readGitRefs } from "./git_refs.ts";

/** Where {@linkcode collectEnvironment} finds the run's commit and branch. */
export interface EnvironmentOptions {
  /** `--commit`: the commit measured, already checked (git_refs.ts `parseCommit`). */
  commit?: string;
  /** `--branch`: the branch it ran on. */
  branch?: string;
  /** The folder git is asked in when no flag or CI variable names the commit: the plan's. */
  gitDir?: string;
  /** Reads an environment variable (default `Deno.env.get`). */
  env?: (name: string) => string | undefined;
}

/**
 * Collects the fingerprint of this machine and checkout; the commit and branch come from the
 * flags, else the CI's variables, else git in `gitDir` (git_refs.ts). Never throws: what cannot
 * be read is left out or marked `unknown`.
 */
export async function collectEnvironment(options: EnvironmentOptions = {}): Promise<Environment> {
  const env = options.env ?? ((name: string) => Deno.env.get(name));
  const refs = await readGitRefs(options.gitDir ?? Deno.cwd(), options, env);
  const ci = detectCi(env);
  return {
    tailgateVersion: TAILGATE_VERSION,
    denoVersion: Deno.version.deno,
    v8Version: Deno.version.v8,
    os: Deno.build.os,
    arch: Deno.build.arch,
    cpuModel: await readCpuModel(),
    cores: navigator.hardwareConcurrency,
    ...(refs.commit ? { gitSha: refs.commit } : {}),
    ...(refs.branch ? { gitBranch: refs.branch } : {}),
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
