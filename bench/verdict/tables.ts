/**
 * verdict_noise.ts's Markdown: per mode and server, how many jobs were green, a warning or red and
 * why red (a regression, a tool-limited run, an SLO, something else); for a change, detected (red by a regression),
 * red otherwise, a warning, or missed (green); with the load average at the first job's start and
 * the last one's end.
 *
 * @module
 */
import { markdownTable } from "../../reporters/text/mod.ts";
import { median } from "../_harness.ts";
import type { ChangeBrief, ComparisonBrief, JobRow } from "./rows.ts";

/** A history-mode row (history_study.ts). */
export interface HistoryRow extends JobRow {
  mode: "history";
  delayUs?: number;
  commit: string;
  stored: boolean;
  /** A changed run: how many runs the history held when the change began. */
  storedAtChange?: number;
  reasons: { kind: string; name: string; status: string; causes?: string[]; message: string }[];
  p50Us?: number;
  p99Us?: number;
  toolLimited?: boolean;
  /** Failed requests by kind, when any. */
  errors?: Record<string, number>;
  historyRan?: boolean;
  worseRecent?: number;
  namesStep?: boolean;
  changes?: ChangeBrief[];
}

/** An A/B-mode row (ab_study.ts). */
export interface AbRow extends JobRow {
  mode: "ab";
  baseDelayUs?: number;
  headDelayUs?: number;
  comparisons?: ComparisonBrief[];
  roundsCompared?: number;
  abWallMs?: number;
  /** Failed requests of each side's runs by kind, when any. */
  errors?: Partial<Record<"base" | "head", Record<string, number>>>;
}

const SERVER_NAMES = { c: "the C delay server", nginx: "nginx (one worker)" };
const NO_CHANGE = "nginx has no changed case: it cannot be slowed precisely (the C server can).";

const n = (rows: readonly JobRow[], keep: (r: JobRow) => boolean) =>
  String(rows.filter(keep).length);
const colour = (c: string) => (r: JobRow) => r.colour === c;
/** How many rows have each of `values` in `field`, as `a / b / c`. */
const tally = (rows: readonly JobRow[], field: "redBy" | "warningBy", values: readonly string[]) =>
  values.map((v) => rows.filter((r) => r[field] === v).length).join(" / ");
const redBy = (rows: readonly JobRow[]) =>
  tally(rows, "redBy", ["regression", "tool-limited", "slo", "other"]);
const warningBy = (rows: readonly JobRow[]) => tally(rows, "warningBy", ["verdict", "annotation"]);
const load = (rows: readonly JobRow[]) =>
  rows.length ? `${rows[0].loadStart} → ${rows[rows.length - 1].loadEnd}` : "-";
const pct = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}%`;
const plural = (k: number, what: string) => `${k} ${what}${k === 1 ? "" : "s"}`;
const ms = (us: number | undefined) => `${((us ?? 0) / 1000).toFixed(2)} ms`;

/** The counts of unchanged jobs: green, warning (and why), red (and why). */
const unchangedCounts = (rs: readonly JobRow[]) => [
  String(rs.length),
  n(rs, colour("green")),
  n(rs, colour("warning")),
  warningBy(rs),
  n(rs, colour("red")),
  redBy(rs),
];
const UNCHANGED_HEAD = [
  "green",
  "warning",
  "warning by verdict / annotation only",
  "red",
  "red by regression / tool-limited / SLO / other",
];

/** The counts of changed jobs: detected, red otherwise, warning (and why), missed. */
const changedCounts = (rs: readonly JobRow[]) => [
  String(rs.length),
  n(rs, (r) => r.redBy === "regression"),
  n(rs, (r) => r.colour === "red" && r.redBy !== "regression"),
  n(rs, colour("warning")),
  warningBy(rs),
  n(rs, colour("green")),
];
const CHANGED_HEAD = [
  "detected (red by a regression)",
  "red otherwise",
  "warning",
  "warning by verdict / annotation only",
  "missed (green)",
];

/** The history mode's tables for one server. */
export function historyTables(server: "c" | "nginx", rows: readonly HistoryRow[]): string[] {
  const own = rows.filter((r) => r.server === server);
  if (own.length === 0) return [];
  const unchanged = own.filter((r) => r.case === "unchanged");
  const out = [`### History mode: ${SERVER_NAMES[server]}`, ""];
  if (unchanged.length) {
    const line = (what: string, rs: readonly HistoryRow[]) => [
      what,
      ...unchangedCounts(rs),
      n(rs, (r) => (r as HistoryRow).stored),
      n(rs, (r) => ((r as HistoryRow).worseRecent ?? 0) > 0),
      load(rs),
    ];
    out.push(
      "Unchanged runs, each added to the history:",
      "",
      ...markdownTable(
        [
          "beside",
          "runs",
          ...UNCHANGED_HEAD,
          "stored",
          "history lists a worse change",
          "load average",
        ],
        ["left", ...Array(8).fill("right"), "left"],
        [
          line("nothing", unchanged.filter((r) => !r.busy)),
          line("busy loop", unchanged.filter((r) => r.busy)),
          line("all", unchanged),
        ],
      ),
      "",
    );
  }
  const changed = [...new Set(own.filter((r) => r.case !== "unchanged").map((r) => r.case))];
  if (changed.length) {
    const line = (c: string) => {
      const rs = own.filter((r) => r.case === c);
      const detected = rs.find((r) => r.redBy === "regression")?.index;
      const named = rs.find((r) => r.namesStep)?.index;
      return [
        `${c} (${ms(rs[0].delayUs)}), after ${plural(rs[0].storedAtChange ?? 0, "stored run")}`,
        ...changedCounts(rs),
        detected === undefined ? "never" : `run ${detected}`,
        named === undefined ? "never" : `run ${named}`,
        load(rs),
      ];
    };
    out.push(
      "After the unchanged runs, the server slower (each change from the same history):",
      "",
      ...markdownTable(
        [
          "change",
          "runs",
          ...CHANGED_HEAD,
          "first detected",
          "history names the step",
          "load average",
        ],
        ["left", ...Array(6).fill("right"), "left", "left", "left"],
        changed.map(line),
      ),
      "",
    );
  }
  if (server === "nginx") out.push(NO_CHANGE, "");
  return out;
}

/** The A/B mode's tables for one server. */
export function abTables(server: "c" | "nginx", rows: readonly AbRow[]): string[] {
  const own = rows.filter((r) => r.server === server);
  if (own.length === 0) return [];
  const out = [`### A/B mode: ${SERVER_NAMES[server]}`, ""];
  const metric = (rs: readonly AbRow[], m: string) =>
    rs.flatMap((r) => r.comparisons?.filter((c) => c.metric === m && !c.label) ?? []);
  const changeCell = (cs: ComparisonBrief[]) => {
    if (cs.length === 0) return "-";
    const changes = cs.map((c) => c.change);
    return `${pct(median(changes))} (${pct(Math.min(...changes))} to ${pct(Math.max(...changes))})`;
  };
  const statusCell = (cs: ComparisonBrief[]) =>
    cs.length
      ? ["pass", "inconclusive", "fail"].map((s) => cs.filter((c) => c.status === s).length)
        .join(" / ")
      : "not compared";
  const figures = (rs: readonly AbRow[]) => [
    changeCell(metric(rs, "p50")),
    statusCell(metric(rs, "p50")),
    statusCell(metric(rs, "p99")),
    rs.length ? String(median(rs.map((r) => r.roundsCompared ?? 0))) : "-",
    rs.length ? `${(median(rs.map((r) => r.wallMs)) / 60_000).toFixed(1)} min` : "-",
    load(rs),
  ];
  const FIGURES_HEAD = [
    "p50 change, median (range)",
    "p50 pass / inconclusive / fail",
    "p99 pass / inconclusive / fail",
    "rounds compared, median",
    "wall time, median",
    "load average",
  ];
  const align = (k: number) =>
    [
      "left",
      ...Array(k + 1).fill("right"),
      "left",
      "left",
      "left",
      "right",
      "right",
      "left",
    ] as Array<"left" | "right">;
  const identical = own.filter((r) => r.case === "identical");
  if (identical.length) {
    const line = (
      what: string,
      rs: readonly AbRow[],
    ) => [what, ...unchangedCounts(rs), ...figures(rs)];
    out.push(
      "Base and head the same build:",
      "",
      ...markdownTable(["beside", "A/Bs", ...UNCHANGED_HEAD, ...FIGURES_HEAD], align(5), [
        line("nothing", identical.filter((r) => !r.busy)),
        line("busy loop", identical.filter((r) => r.busy)),
        line("all", identical),
      ]),
      "",
    );
  }
  const changed = [...new Set(own.filter((r) => r.case !== "identical").map((r) => r.case))];
  if (changed.length) {
    out.push(
      "Head slower than base:",
      "",
      ...markdownTable(
        ["head", "A/Bs", ...CHANGED_HEAD, ...FIGURES_HEAD],
        align(5),
        changed.map((c) => {
          const rs = own.filter((r) => r.case === c);
          return [`${c} (${ms(rs[0].headDelayUs)})`, ...changedCounts(rs), ...figures(rs)];
        }),
      ),
      "",
    );
  }
  if (server === "nginx") out.push(NO_CHANGE, "");
  return out;
}
