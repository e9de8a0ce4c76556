/**
 * The template grammar of request paths, header values and bodies: `{{var}}`, `{{source.column}}`,
 * `${env.NAME}` (a secret), `{{name}}` for a value a setup step captured (a secret bound once setup
 * has run), and `{{"text"}}` for text that would otherwise read as a template
 * (`{{"{{"}}` is a literal `{{`). Pure: the names it may resolve come in a {@linkcode TemplateScope}.
 *
 * @module
 */
import { didYouMean } from "../read/mod.ts";
import type { TemplateEncoding, TemplatePart, TemplateRef } from "../types.ts";
import type { Problem } from "../../model/mod.ts";

/** What a template may name, and how `${env.NAME}` is read. */
export interface TemplateScope {
  /** Var names (`vars`). */
  vars: ReadonlySet<string>;
  /** Data source names with their columns (`data`). */
  sources: ReadonlyMap<string, readonly string[]>;
  /** Vars and sources declared but in error: templates naming them add no error of their own. */
  broken?: ReadonlySet<string>;
  /** Names captured by setup steps this template runs after (optional: none when absent). */
  captures?: ReadonlySet<string>;
  /** Names captured only by steps that run after this template, with where (`setup[2]`). */
  capturedLater?: ReadonlyMap<string, string>;
  /**
   * Set for a setup or teardown step, which is sent once: what to say of a var or a column there
   * (they draw a value per measured request).
   */
  sentOnce?: string;
  env(name: string): string | undefined;
  /** When false (`tailgate check`), an unset environment variable is a warning. */
  requireEnv: boolean;
  /**
   * Why a reference's values cannot go in a header (a control character in a data row or a
   * choice), or undefined when they all can (optional: without it, nothing is checked).
   */
  unsafeInHeader?(ref: TemplateRef): string | undefined;
}

/** A problem at `offset` (characters into the text), `length` characters long. */
export interface TemplateProblem extends Problem {
  severity: "error" | "warning";
  offset: number;
  length: number;
}

/** A parsed template: its parts, and whether it draws values or reads secrets. */
export interface ParsedTemplate {
  parts: TemplatePart[];
  problems: TemplateProblem[];
  /** True when a part draws a value per request (a var or a column). */
  drawsValues: boolean;
  /** True when a part reads `${env.NAME}`. */
  readsSecrets: boolean;
  /** True when a part is a setup step's capture, bound once setup has run. */
  bindsCaptures: boolean;
  /** True when the text has no template syntax at all: it is sent exactly as written. */
  verbatim: boolean;
}

const OPENERS = /\{\{|\$\{/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Splits `text` into literal text, secrets and references, each reference marked with the
 * `encoding` of the place it is written in.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseTemplate } from "./parse_template.ts";
 * const scope = {
 *   vars: new Set(["qty"]),
 *   sources: new Map([["users", ["id", "name"]]]),
 *   env: () => undefined,
 *   requireEnv: true,
 * };
 * const t = parseTemplate("/users/{{users.id}}?qty={{ qty }}", scope, "percent");
 * assert.equal(t.parts.length, 4); // "/users/", users.id, "?qty=", qty
 * ```
 */
export function parseTemplate(
  text: string,
  scope: TemplateScope,
  encoding: TemplateEncoding,
): ParsedTemplate {
  const parts: TemplatePart[] = [];
  const problems: TemplateProblem[] = [];
  let drawsValues = false;
  let readsSecrets = false;
  let bindsCaptures = false;
  let literal = "";
  let at = 0;
  const flush = () => {
    if (literal !== "") parts.push({ kind: "text", text: literal });
    literal = "";
  };
  for (const m of text.matchAll(OPENERS)) {
    if (m.index < at) continue; // inside a template already read
    literal += text.slice(at, m.index);
    const close = text.indexOf(m[0] === "{{" ? "}}" : "}", m.index + 2);
    if (close < 0) {
      problems.push({
        severity: "error",
        offset: m.index,
        length: text.length - m.index,
        message: `\`${m[0]}\` is not closed`,
        hint: m[0] === "{{"
          ? 'close it with `}}`, or write `{{"{{"}}` for a literal `{{`'
          : 'close it with `}`, or write `{{"${"}}` for a literal `${`',
      });
      at = text.length;
      break;
    }
    const end = close + (m[0] === "{{" ? 2 : 1);
    const whole = text.slice(m.index, end);
    const inner = text.slice(m.index + 2, close).trim();
    const problem = (message: string, hint?: string, severity: "error" | "warning" = "error") =>
      problems.push({ severity, offset: m.index, length: whole.length, message, hint });
    at = end;
    if (m[0] === "${") {
      const env = /^env\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(inner);
      if (!env) {
        problem(
          `\`${whole}\` is not a known substitution`,
          NAME.test(inner)
            ? `a value drawn per request is written \`{{${inner}}}\` (declared under \`vars\`); \`\${env.NAME}\` reads an environment variable`
            : "write `${env.NAME}` to read an environment variable, or `{{var}}` for a var",
        );
        continue;
      }
      readsSecrets = true;
      const value = scope.env(env[1]);
      if (value === undefined) {
        problem(
          `environment variable \`${env[1]}\` is not set`,
          `set ${env[1]} before the run (in CI, from a secret)`,
          scope.requireEnv ? "error" : "warning",
        );
      }
      flush();
      parts.push({ kind: "secret", value: value ?? "", template: whole });
      continue;
    }
    if (inner.startsWith('"')) {
      try {
        const value = JSON.parse(inner);
        if (typeof value !== "string") throw new Error();
        literal += value;
      } catch {
        problem(`\`${whole}\` is not a quoted text`, 'write e.g. `{{"{{"}}` for a literal `{{`');
      }
      continue;
    }
    const owner = inner.split(".")[0].trim();
    if (scope.broken?.has(owner)) continue; // its own error says what is wrong
    const drawn = scope.vars.has(inner) || scope.sources.has(owner);
    if (!drawn && scope.captures?.has(inner)) {
      bindsCaptures = true;
      flush();
      parts.push({ kind: "capture", name: inner, encoding });
      continue;
    }
    const later = drawn ? undefined : scope.capturedLater?.get(inner);
    if (later !== undefined) {
      problem(
        `\`{{${inner}}}\` is captured by ${later}, which runs after this`,
        "use a capture only after the step that takes it",
      );
      continue;
    }
    const ref = resolve(inner, scope);
    if ("message" in ref) {
      problem(ref.message, ref.hint);
      continue;
    }
    if (scope.sentOnce !== undefined) {
      problem(scope.sentOnce, "write the value, read it with `${env.NAME}`, or capture it");
      continue;
    }
    drawsValues = true;
    flush();
    parts.push({ kind: "ref", ref, encoding });
  }
  literal += text.slice(at);
  flush();
  const verbatim = parts.length === 0 || (parts.length === 1 && parts[0].kind === "text" &&
    parts[0].text === text);
  return { parts, problems, drawsValues, readsSecrets, bindsCaptures, verbatim };
}

type Resolved =
  | { kind: "var"; name: string }
  | { kind: "column"; source: string; column: string }
  | { message: string; hint?: string };

function resolve(inner: string, scope: TemplateScope): Resolved {
  if (inner === "") {
    return {
      message: "`{{}}` names nothing",
      hint: 'write `{{var}}`, `{{source.column}}` or `{{"{{"}}`',
    };
  }
  const dot = inner.indexOf(".");
  if (dot < 0) {
    if (scope.vars.has(inner)) return { kind: "var", name: inner };
    if (scope.sources.has(inner)) {
      const first = scope.sources.get(inner)![0];
      return {
        message: `\`{{${inner}}}\` names a data source, not one of its columns`,
        hint: `name a column, e.g. \`{{${inner}.${first}}}\``,
      };
    }
    return unknown(inner, scope);
  }
  const source = inner.slice(0, dot).trim();
  const column = inner.slice(dot + 1).trim();
  const columns = scope.sources.get(source);
  if (columns === undefined) return unknown(source, scope, column);
  if (columns.includes(column)) return { kind: "column", source, column };
  const guess = didYouMean(column, columns);
  return {
    message: `data source \`${source}\` has no column \`${column}\``,
    hint: guess ? `did you mean \`{{${source}.${guess}}}\`?` : `its columns: ${columns.join(", ")}`,
  };
}

function unknown(name: string, scope: TemplateScope, column?: string): Resolved {
  if (column !== undefined) return unknownSource(name, column, scope);
  const known = [...scope.vars, ...scope.sources.keys(), ...(scope.captures ?? [])];
  const guess = didYouMean(name, known);
  return {
    message: `\`${name}\` is neither a var nor a data source of this plan`,
    hint: guess
      ? `did you mean \`${guess}\`?`
      : `declare it under \`vars\` (e.g. \`${name}: uuid\`), or write \`{{"{{"}}\` for a literal \`{{\``,
  };
}

/**
 * `{{source.column}}` of a source the plan lacks. The guess is the source whose name is closest,
 * else the one source with that column, else the plan's only source: `{{rows.id}}` in a plan
 * whose one source is `posts` means `{{posts.id}}`.
 */
function unknownSource(name: string, column: string, scope: TemplateScope): Resolved {
  const message = `\`${name}\` in \`{{${name}.${column}}}\` is not a data source of this plan`;
  if (scope.vars.has(name)) {
    return { message, hint: `\`${name}\` is a var, which has no columns: write \`{{${name}}}\`` };
  }
  const sources = [...scope.sources.keys()];
  const withColumn = sources.filter((s) => scope.sources.get(s)!.includes(column));
  const guess = didYouMean(name, sources) ??
    (withColumn.length === 1 ? withColumn[0] : sources.length === 1 ? sources[0] : undefined);
  if (guess === undefined) {
    return {
      message,
      hint: `declare it under \`data\`, e.g. \`${name}: { file: data/${name}.csv }\``,
    };
  }
  const columns = scope.sources.get(guess)!;
  const fit = columns.includes(column) ? column : didYouMean(column, columns) ?? columns[0];
  return { message, hint: `did you mean \`{{${guess}.${fit}}}\`?` };
}
