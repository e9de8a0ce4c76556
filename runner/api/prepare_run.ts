/**
 * The first part of a run's lifecycle, before anything is measured: the output folder (writable,
 * apart from the history), the CA certificates read, the open-files limit against the plan's
 * connections, the service under test started (its output's last 16 MiB in `service.log` in the
 * out folder, its wait said as progress lines) and the target reached, its certificate trusted.
 * Each failure is an outcome naming the cause: exit 2 for a folder or a file, 4 for a target or a
 * service that fails before it is ready (its log's last lines in the notes), 3 when a stop came
 * while it got ready. The service is stopped once the work is done, whatever it returned or threw;
 * what the stop found (an address that still answers, a log cut at its head) joins the outcome.
 *
 * @module
 */
import { checkGrpcTarget, checkTarget, descriptorProblem, openFilesLimit } from "../engine/mod.ts";
import { EXIT_CODES, problemText } from "../model/mod.ts";
import { firstUrl, type ResolvedPlan } from "../plan/mod.ts";
import { readCaCerts } from "./ca_certs.ts";
import { failed, type Outcome } from "./outcome.ts";
import { checkOutDir } from "./out_dir.ts";
import { outOverlap } from "./out_overlap.ts";
import { type RunService, type ServiceFailure, startRunService } from "./run_service.ts";
import { serviceToStart, type StartFlags } from "./service_to_start.ts";

/** Options of {@linkcode withPreparedRun}. */
export interface PrepareRunOptions {
  /** Where the run's files go: checked before any work. */
  outDir: string;
  /** The history folder, when one is read or written: it may not share a folder with `outDir`. */
  historyDir?: string;
  /** PEM files to trust for https targets (`--ca-cert`). */
  caCertFiles?: readonly string[];
  /** What the command line says of the service under test (`--start` …); else the plan's. */
  start?: StartFlags;
  /** Check the open-files limit against the plan's connections (a run's; not a search's). */
  checkDescriptors?: boolean;
  /** Progress lines (the service's wait). */
  onProgress?: (line: string) => void;
  /** Ctrl-C or SIGTERM: stops the wait for the service, and the work. */
  signal?: AbortSignal;
}

/** What the work of a prepared run is given. */
export interface PreparedRun {
  /** The CA certificates read, in PEM. */
  caCerts: string[];
  /** The started service, when there is one. */
  service?: RunService;
  /** The stop: the caller's, and the started service's loss. */
  signal?: AbortSignal;
}

/**
 * Prepares `plan`'s run and calls `work` with what it prepared: the work's outcome (with what
 * the service's stop found), or the failure that came first.
 */
export async function withPreparedRun<T extends Outcome>(
  plan: ResolvedPlan,
  options: PrepareRunOptions,
  work: (prepared: PreparedRun) => Promise<T | Outcome>,
): Promise<T | Outcome> {
  // Every path is checked before the run, so no measurement is lost to a typo.
  const certs = await readCaCerts(options.caCertFiles ?? []);
  if (!certs.ok) return failed(certs.problems);
  const caCerts = certs.value;
  const outProblem = await checkOutDir(options.outDir) ??
    await outOverlap(options.outDir, options.historyDir);
  if (outProblem) return failed(outProblem);
  if (options.checkDescriptors) {
    const descriptors = descriptorProblem(plan.load.maxConnections, await openFilesLimit());
    if (descriptors) return failed(descriptors);
  }
  // The plan's service, or --start's: --ready and --ready-timeout override either's.
  const toStart = serviceToStart(options.start, plan);
  if (!toStart.ok) return failed(toStart.problems);
  let service: RunService | undefined;
  if (toStart.value) {
    const started = await startRunService(toStart.value, firstUrl(plan), {
      outDir: options.outDir,
      onProgress: options.onProgress ?? (() => {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!started.ok) return serviceFailed(started.problems[0]);
    service = started.value;
  }
  // A service lost during the work stops it.
  const signal = service?.signal ?? options.signal;
  return await withService(service, async () => {
    // Reached, and an https target's certificate trusted, before anything is sent; a gRPC
    // target answers its health service's call (never the method under test).
    const target = new URL(firstUrl(plan));
    const unreachable = await checkTarget(target, caCerts, undefined, plan.load.http) ??
      (plan.grpc ? await checkGrpcTarget(target, caCerts) : undefined);
    if (unreachable) return failed(unreachable, EXIT_CODES.unreachable);
    return await work({ caCerts, ...(service ? { service } : {}), ...(signal ? { signal } : {}) });
  });
}

/** A service that failed before it was ready: exit 4 (3 when stopped), its last lines said. */
function serviceFailed(why: ServiceFailure): Outcome {
  return {
    ...failed(problemText(why), why.stopped ? EXIT_CODES.invalidRun : EXIT_CODES.unreachable),
    notes: why.stopped ? [] : [lastLinesNote(why)],
  };
}

/** The service's last lines, one a line, under what they are. */
function lastLinesNote(why: ServiceFailure): string {
  if (why.lastLines.length === 0) return `the service wrote nothing (${why.logPath} is empty)`;
  const count = why.lastLines.length;
  return `last ${count === 1 ? "line" : `${count} lines`} of ${why.logPath}:\n` +
    why.lastLines.map((line) => `  ${line}`).join("\n");
}

/**
 * Runs `work` while `service` (when there is one) runs, then stops it: the outcome gains what the
 * stop found. A `work` that throws stops the service too.
 */
async function withService<T extends Outcome>(
  service: RunService | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (service === undefined) return await work();
  let outcome: T;
  try {
    outcome = await work();
  } catch (e) {
    await service.stop();
    throw e;
  }
  const { errors, notes } = await service.stop();
  return {
    ...outcome,
    errors: [...outcome.errors, ...errors],
    notes: [...outcome.notes, ...notes],
  };
}
