/**
 * Validates the plan's `data`: named CSV or JSONL files beside the plan, read and checked whole
 * (every malformed row is named as `file:line`), so nothing is found wrong after the first send.
 *
 * @module
 */
import type { YamlNode } from "../read/mod.ts";
import { DATA_LIMITS, readDataTable } from "./data_table.ts";
import type { PlanContext } from "../plan_context.ts";
import { planFile } from "../read/mod.ts";
import { join, type PlanReader } from "../read/mod.ts";
import { readSection } from "../read/mod.ts";
import type { DataOrder, PlanDataSource } from "../types.ts";
import { templateName } from "./validate_vars.ts";
import { columnValues } from "../runtime/mod.ts";

/** All data files of a plan together may hold at most this many values (each worker keeps them). */
export const MAX_PLAN_DATA_CELLS = 8_000_000;

/**
 * Reads `data`: `name: { file, order?, exhausted? }`, or `name: file` for the defaults.
 */
export function readData(reader: PlanReader, node: YamlNode, ctx: PlanContext): PlanDataSource[] {
  if (node.kind !== "map") {
    reader.error(
      node,
      "data",
      "`data` must be a mapping of names to data files",
      "e.g. `data: { users: { file: data/users.csv } }`",
    );
    return [];
  }
  const out: PlanDataSource[] = [];
  let cells = 0;
  for (const entry of node.entries) {
    const path = join("data", entry.key);
    if (!templateName(reader, entry, path, "data source", "users")) continue;
    const source = readSource(reader, entry.value, path, ctx, entry.key);
    if (source === undefined) continue;
    cells += source.rows * source.columns.length;
    if (cells > MAX_PLAN_DATA_CELLS) {
      reader.error(
        entry.value,
        path,
        `the plan's data files hold more than ${MAX_PLAN_DATA_CELLS.toLocaleString("en")} values`,
        "use fewer rows or columns: every engine worker keeps the values in memory",
      );
      continue;
    }
    out.push({ ...source, line: entry.keyPos.line, col: entry.keyPos.col });
  }
  return out;
}

function readSource(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  ctx: PlanContext,
  name: string,
): Omit<PlanDataSource, "line" | "col"> | undefined {
  let fileNode: YamlNode | undefined = node;
  let order: DataOrder = "sequence";
  let exhausted: "wrap" | "error" = "wrap";
  if (node.kind !== "scalar") {
    const s = readSection(reader, node, path, "data_source");
    if (s === undefined) return undefined;
    fileNode = s.at("file");
    order = s.value<DataOrder>("order");
    exhausted = s.value<"wrap" | "error">("exhausted");
  }
  if (fileNode === undefined) return undefined;
  const filePath = join(path, node.kind === "scalar" ? "" : "file").replace(/\.$/, "");
  const file = reader.string(fileNode, filePath);
  if (file === undefined) return undefined;
  const resolved = planFile(reader, fileNode, filePath, file, ctx, "data file");
  if (resolved === undefined) return undefined;
  const bytes = ctx.readFile?.(resolved, DATA_LIMITS.maxFileBytes);
  if (bytes === undefined) {
    const size = ctx.fileSize(resolved) ?? 0;
    reader.error(
      fileNode,
      filePath,
      size > DATA_LIMITS.maxFileBytes
        ? `data file \`${file}\` is ${size} bytes; a data file may be at most ${DATA_LIMITS.maxFileBytes}`
        : `data file \`${file}\` cannot be read`,
      size > DATA_LIMITS.maxFileBytes ? "split it, or keep the columns the plan uses" : undefined,
    );
    return undefined;
  }
  const read = readDataTable(bytes, file);
  if (!read.ok) {
    reader.error(
      fileNode,
      filePath,
      `${file}:${read.problems[0].line}: ${read.problems[0].message}`,
      read.problems[0].hint,
    );
    return undefined;
  }
  const table = read.value;
  return {
    name,
    file,
    path: resolved,
    format: table.format,
    order,
    exhausted,
    columns: table.columns,
    rows: table.rows,
    // Packed: per-row strings would be a hundred thousand objects in every engine worker.
    text: table.text.map(columnValues),
    ...(table.json ? { json: table.json.map(columnValues) } : {}),
  };
}
