/**
 * The report's tool-health panel (could the generator hold its schedule?) and the environment
 * fingerprint the numbers belong to.
 *
 * @module
 */
import { formatDurationMs, formatRatePerSec } from "../../runner/plan/mod.ts";
import type { EncodedHistogram, Environment, ToolHealth } from "../../runner/model/mod.ts";
import { escapeHtml, htmlTable, keyValueTable } from "../page/mod.ts";
import { isHttp2, type ProtocolOf, protocolText } from "../../runner/result/read/mod.ts";
import { PERCENTILE_HEADERS, percentileCells } from "./html_stages.ts";

/**
 * The tool-health panel: a verdict in words, the lag histograms, rates, CPU, connections and the
 * protocol; over HTTP/2 the queue wait is the stream wait (requests that waited for a free stream).
 */
export function toolHealthPanel(
  health: ToolHealth,
  floor: string | undefined,
  protocol: ProtocolOf,
): string {
  const verdict = health.toolLimited
    ? `<div class="health-verdict health-limited"><strong>Tool-limited.</strong> tailgate could ` +
      `not keep to the schedule, so the server may have seen less load than planned: no gate ` +
      `passes, and a gate fails only beyond what the generator's own delays explain:<ul>${
        health.reasons.map((r) => `<li>${escapeHtml(r)}</li>`).join("")
      }</ul></div>`
    : `<div class="health-verdict health-ok"><strong>Healthy.</strong> tailgate kept to its ` +
      `schedule. Its own delays are below; each gate allows for them at its percentile.</div>`;
  const lags: Array<[string, string, EncodedHistogram]> = [
    ["send lag", "write − intended time, requests that found a free connection", health.sendLag],
    ...(health.stepLag
      ? [[
        "step lag",
        "write − due time, journeys' later steps that found a free connection (due at the " +
        "previous step's completion plus think; counted in the step's response time)",
        health.stepLag,
      ] as [string, string, EncodedHistogram]]
      : []),
    [
      "dispatch lag",
      "when the dispatcher took each request − its intended time",
      health.dispatchLag,
    ],
    isHttp2(protocol)
      ? [
        "stream wait",
        "write − intended time, requests that waited for a free stream, every stream of every " +
        "connection busy (the server's pace; counted in response time, not a tool limit)",
        health.queueWait,
      ]
      : [
        "queue wait",
        "write − intended time, requests that waited for a busy connection (the server's pace; " +
        "counted in response time, not a tool limit)",
        health.queueWait,
      ],
    [
      "engine stalls",
      "wake signalled → engine loop running again (its own pauses: GC, busy, descheduled)",
      health.engineStall,
    ],
    [
      "platform hiccups",
      "oversleep of a thread that only sleeps 1 ms (the OS, the VM, other processes)",
      health.platformHiccup,
    ],
  ];
  const table = htmlTable(
    ["measure", "count", ...PERCENTILE_HEADERS],
    lags.map(([name, what, h]) => [
      { html: `<strong>${escapeHtml(name)}</strong><div class="muted">${escapeHtml(what)}</div>` },
      h.count.toLocaleString("en-US"),
      ...percentileCells(h),
    ]),
    { numeric: [1, 2, 3, 4, 5, 6, 7] },
  );
  const facts = keyValueTable([
    [
      "send rate",
      `${formatRatePerSec(health.achievedPerSec)} achieved of ${
        formatRatePerSec(health.intendedPerSec)
      } intended`,
    ],
    [
      "CPU",
      `${formatDurationMs(health.cpu.userMs)} user, ${
        formatDurationMs(health.cpu.systemMs)
      } system, ${formatDurationMs(health.cpu.perRequestUs / 1000)} per request`,
    ],
    [
      "connections",
      `${health.connections.opened} opened, at most ${health.connections.peak} at once`,
    ],
    ["protocol", protocolText(protocol)],
    ["timer slack 1 ns", health.timerSlackSet ? "set" : "not set (needs --allow-ffi)"],
    ["I/O path", IO_PATHS[health.io ?? "unknown"]],
    ["tool-limited", health.toolLimited ? "yes" : "no"],
  ]);
  const floorNote = floor === undefined
    ? ""
    : `<p class="health-floor"><strong>Measured floor:</strong> ${escapeHtml(floor)}</p>`;
  return `${verdict}${floorNote}${table}${facts}`;
}

/**
 * The environment fingerprint as a table.
 */
export function environmentTable(env: Environment): string {
  return keyValueTable([
    ["tailgate", env.tailgateVersion],
    ["Deno", env.denoVersion],
    ["V8", env.v8Version],
    ["OS", `${env.os} (${env.arch})`],
    ["CPU", `${env.cpuModel}, ${env.cores} cores`],
    ["git commit", env.gitSha ?? "–"],
    ["CI", env.ci ?? "–"],
  ]);
}

const IO_PATHS: Record<string, string> = {
  native: "native (libc sockets on epoll)",
  deno: "Deno's sockets",
  mixed: "mixed (shards differed)",
  unknown: "not recorded",
};
