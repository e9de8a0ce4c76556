/**
 * The time-domain analysis of each measured stage in words (runner/result/time_domain.ts), one
 * line per stage with something to say: a significant trend of p50 or p99, stalls (with their
 * times and period), two modes. The terminal, Markdown and HTML reports print these lines.
 *
 * @module
 */
import type { RunResult, StageTimeDomain, Trend } from "../../runner/model/mod.ts";
import { formatDurationMs } from "../../runner/plan/mod.ts";
import { printable } from "../../runner/plan/mod.ts";

/**
 * One line per measured stage whose analysis shows something; empty when none does.
 */
export function timeDomainLines(result: RunResult): string[] {
  return result.stages.flatMap((stage) => {
    const said = describe(stage.timeDomain);
    return said.length ? [`${printable(stage.name)}: ${said.join("; ")}`] : [];
  });
}

function describe(t: StageTimeDomain | undefined): string[] {
  if (t === undefined) return [];
  const out: string[] = [];
  for (const [name, trend] of [["p50", t.trendP50UsPerMin], ["p99", t.trendP99UsPerMin]] as const) {
    if (trend?.significant) out.push(`${name} ${trendText(trend)}`);
  }
  if (t.stalls.length) {
    const at = t.stalls.slice(0, 5).map((s) => formatDurationMs(s.startMs)).join(", ");
    const more = t.stalls.length > 5 ? ", …" : "";
    const period = t.stallPeriodMs === undefined
      ? ""
      : ` every ${formatDurationMs(t.stallPeriodMs)}`;
    const worst = Math.max(...t.stalls.map((s) => s.maxUs));
    out.push(
      `${t.stalls.length} stall${t.stalls.length === 1 ? "" : "s"}${period} (at ${at}${more}; ` +
        `worst ${formatDurationMs(worst / 1000)})`,
    );
  }
  if (t.bimodal.flagged && t.bimodal.modesUs) {
    const [a, b] = t.bimodal.modesUs.map((us) => formatDurationMs(us / 1000));
    out.push(`two modes, near ${a} and ${b}`);
  }
  return out;
}

function trendText(t: Trend): string {
  const per = (us: number) => `${formatDurationMs(Math.abs(us) / 1000)}/min`;
  return `${t.slope >= 0 ? "rises" : "falls"} ${per(t.slope)} (95%: ${signed(t.low)}..${
    signed(t.high)
  }/min)`;
}

function signed(us: number): string {
  return `${us < 0 ? "-" : ""}${formatDurationMs(Math.abs(us) / 1000)}`;
}
