/**
 * The Markdown summary's slowest requests, under the gates: for each failed latency gate, the
 * three slowest requests of the stages it judged (of its label, or across every label for a gate
 * over all of them), each with its trace id, intended send time, response time and status, so a
 * red p99.9 leads to the trace of a request that made it. Gates that judged the same stages and
 * label share one table.
 *
 * @module
 */
import type { RunResult, Verdict } from "../../runner/model/mod.ts";
import { failedLatencyGates, NO_TRACE_HINT, slowestOf, slowFigures } from "../figures/mod.ts";
import { markdownTable } from "./markdown_table.ts";

/** How many requests the summary names under a failed latency gate. */
export const SLOWEST_SHOWN = 3;

/** How many gates' names head one table; the rest are counted. */
const GATE_NAMES_SHOWN = 3;

/**
 * The tables (at most `maxTables`, so the summary keeps within its size) with a line naming
 * their gates and scope; nothing when no latency gate failed or the result keeps no slow
 * requests. `esc` escapes text the plan controls.
 */
export function slowestUnderGates(
  result: RunResult,
  maxTables: number,
  esc: (text: string) => string,
): string[] {
  const scopes = new Map<string, Verdict[]>();
  for (const v of failedLatencyGates(result)) {
    const key = JSON.stringify([[...v.stageIndexes].sort((a, b) => a - b), v.label ?? null]);
    scopes.set(key, [...(scopes.get(key) ?? []), v]);
  }
  const tables = [...scopes.values()].map((gates) => {
    const { stageIndexes, label } = gates[0];
    return { gates, requests: slowestOf(result, stageIndexes, label, SLOWEST_SHOWN) };
  }).filter((t) => t.requests.length > 0);
  const shown = tables.slice(0, Math.max(0, maxTables));
  if (shown.length === 0) return [];
  const traced = result.plan.trace !== undefined ||
    shown.some((t) => t.requests.some((r) => slowFigures(r).traceId !== undefined));
  const stageName = (index: number) =>
    esc(result.stages.find((s) => s.index === index)?.name ?? `#${index + 1}`);
  return [
    ...shown.flatMap(({ gates, requests }) => {
      const { stageIndexes, label } = gates[0];
      const scope = `stage${stageIndexes.length === 1 ? "" : "s"} ` +
        `${stageIndexes.map(stageName).join(", ")}; ` +
        (label === undefined ? "every label" : `label ${esc(label)}`);
      const rows = requests.map((r) => {
        const f = slowFigures(r);
        return [
          ...(traced ? [f.traceId === undefined ? "–" : `\`${f.traceId}\``] : []),
          esc(r.label),
          stageName(r.stageIndex),
          f.sentAt,
          f.response,
          esc(f.status),
        ];
      });
      return [
        `**Slowest requests under ❌ ${gateNames(gates, esc)}** (${scope}):`,
        "",
        ...markdownTable(
          [...(traced ? ["trace id"] : []), "label", "stage", "sent at", "response", "status"],
          [...(traced ? ["left" as const] : []), "left", "left", "right", "right", "left"],
          rows,
        ),
        "",
      ];
    }),
    ...(traced ? [] : [`No trace ids: ${NO_TRACE_HINT}.`, ""]),
    ...(tables.length > shown.length
      ? [
        `… ${tables.length - shown.length} more failed gates' slowest requests (see the HTML ` +
        "report)",
        "",
      ]
      : []),
  ];
}

/** `p90 < 1ms, max < 1ms`, or the first few names and how many more. */
function gateNames(gates: readonly Verdict[], esc: (text: string) => string): string {
  const names = gates.slice(0, GATE_NAMES_SHOWN).map((g) => esc(g.name)).join(", ");
  const more = gates.length - GATE_NAMES_SHOWN;
  return more > 0 ? `${names} and ${more} more` : names;
}
