/**
 * Validates the plan's `data`: named CSV or JSONL files beside the plan, read and checked whole
 * (every malformed row is named as `file:line`), so nothing is found wrong after the first send.
 *
 * @module
 */
import type { YamlNode } from "../read/_yaml.ts";
import { DATA_LIMITS, readDataTable } from "./data_table.ts";
import type { PlanContext } from "../plan_context.ts";
import { planFile } from "../read/plan_file.ts";
import { keysOf, keySpec, PLAN_LANGUAGE } from "../read/plan_language.ts";
import { join, type PlanReader } from "../read/plan_reader.ts";
import type { DataOrder, PlanDataSource } from "../types.ts";
import { templateName } from "./validate_vars.ts";
import { columnValues } from "./column_values.ts";

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
    const spec = PLAN_LANGUAGE.data_source;
    const f = reader.fields(node, path, keysOf("data_source"), spec.synonyms);
    if (f === undefined) return undefined;
    fileNode = f.get("file")?.value;
    if (fileNode === undefined) {
      reader.error(
        node,
        path,
        `data source \`${name}\` has no \`file\``,
        `add e.g. \`file: data/${name}.csv\``,
      );
    }
    const pick = <T extends string>(key: "order" | "exhausted", fallback: T): T => {
      const spec = keySpec("data_source", key);
      const valueNode = f.get(key)?.value;
      if (valueNode === undefined || spec.kind !== "choice") return fallback;
      return choice(reader, valueNode, join(path, key), spec.values as readonly T[], fallback);
    };
    order = pick("order", order);
    exhausted = pick("exhausted", exhausted);
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
      `${file}:${read.problem.line}: ${read.problem.message}`,
      read.problem.hint,
    );
    return undefined;
  }
  const { table } = read;
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

function choice<T extends string>(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  values: readonly T[],
  fallback: T,
): T {
  const text = reader.string(node, path);
  if (text === undefined) return fallback;
  if ((values as readonly string[]).includes(text)) return text as T;
  reader.error(node, path, `\`${text}\` is not one of ${values.map((v) => `\`${v}\``).join(", ")}`);
  return fallback;
}
