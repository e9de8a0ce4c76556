/**
 * What the generator itself may have added to a measured latency, and whether it held its
 * schedule: the two facts about the tool that the decision rule weighs next to the sampling
 * interval. Pure: reads the result's tool-health figures only.
 *
 * @module
 */
import { formatDurationMs } from "../plan/mod.ts";
import { measuredFloor, percentileOf } from "../result/mod.ts";
import { latenessP99Us } from "../result/mod.ts";
import { cpuShare, latenessRemedy, moreWorkers } from "../result/mod.ts";
import type { RunResult, ToolHealth } from "../model/mod.ts";

/** The generator's possible contribution at one percentile (us). */
export interface GeneratorAllowance {
  /** Late sends: the larger of send lag and dispatch lag there. */
  lateSendUs: number;
  /** Late reads: the measured floor there (engine stalls or platform hiccups, the larger). */
  floorUs: number;
  /** lateSendUs + floorUs: at most this much of a measured latency can be the tool's. */
  addedUs: number;
}

/**
 * The allowance at `percentile` (in percent; 100 reads the maxima). A request can be sent late
 * (send or dispatch lag) and its response read late (an engine stall or a platform hiccup), so
 * the two add.
 */
export function generatorAllowance(
  health: Pick<ToolHealth, "sendLag" | "dispatchLag" | "engineStall" | "platformHiccup">,
  percentile: number,
): GeneratorAllowance {
  const at = (h: ToolHealth["sendLag"] | undefined) =>
    h === undefined || h.count === 0
      ? 0
      : percentile >= 100
      ? h.maxUs
      : percentileOf(h, percentile);
  const lateSendUs = Math.max(at(health.sendLag), at(health.dispatchLag));
  // The run's measured floor, as every report states it (result/read/measured_floor.ts).
  const floorUs = measuredFloor(health, percentile).floorUs;
  return { lateSendUs, floorUs, addedUs: lateSendUs + floorUs };
}

/** The same for a mean: the figures' means. */
export function generatorAllowanceOfMean(
  health: Pick<ToolHealth, "sendLag" | "dispatchLag" | "engineStall" | "platformHiccup">,
): GeneratorAllowance {
  const mean = (h: ToolHealth["sendLag"] | undefined) => h?.count ? h.meanUs : 0;
  const lateSendUs = Math.max(mean(health.sendLag), mean(health.dispatchLag));
  const floorUs = Math.max(mean(health.engineStall), mean(health.platformHiccup));
  return { lateSendUs, floorUs, addedUs: lateSendUs + floorUs };
}

/**
 * Whether the generator held its schedule, with lateness at p99 allowed up to `limitUs`: if it fell
 * behind, the server saw less load than planned and a pass could be flattered. Lateness is the
 * generator's own (send lag of requests that found a free connection, dispatch lag of every
 * request); a wait for a busy connection is the server's pace and does not count. Returns the
 * reason in words when it did not.
 */
export function scheduleShortfall(
  result: {
    health:
      & Pick<ToolHealth, "sendLag" | "dispatchLag" | "cpu">
      & Partial<
        Pick<ToolHealth, "platformHiccup">
      >;
    run: Pick<RunResult["run"], "durationMs" | "rerunWith">;
  },
  limitUs: number,
): string | undefined {
  const h = result.health;
  const lateP99 = latenessP99Us(h);
  if (lateP99 > limitUs) {
    // Name the lag that was late: the larger of the two, the other beside it.
    const ms = (us: number) => formatDurationMs(us / 1000);
    const sendUs = h.sendLag.count ? percentileOf(h.sendLag, 99) : 0;
    const lag = sendUs >= lateP99
      ? `its send lag p99 was ${ms(sendUs)}`
      : `its dispatch lag p99 was ${ms(lateP99)}` +
        (h.sendLag.count ? `, send lag ${ms(sendUs)}` : "");
    const remedy = latenessRemedy(
      {
        cpu: h.cpu,
        durationMs: result.run.durationMs,
        platformHiccup: h.platformHiccup,
        advice: result.run,
      },
      lateP99,
    );
    return `the generator fell behind its schedule (${lag}, above ${ms(limitUs)}), so the ` +
      `server may have seen less load than planned: ${remedy}`;
  }
  const share = cpuShare(h.cpu, result.run.durationMs);
  if (share > 0.95) {
    return `the generator used ${
      Math.round(share * 100)
    }% of a CPU core and could not keep up by itself: use ${
      moreWorkers(result.run)
    } or a bigger runner`;
  }
  return undefined;
}
