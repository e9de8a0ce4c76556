/**
 * Validates `service`: the command that starts the service under test, where it answers once
 * ready (a URL or a port), how long it may take, its environment and its folder.
 *
 * @module
 */
import { join as joinPath } from "node:path";
import type { YamlNode } from "./read/mod.ts";
import { join, type PlanReader, readSection, sourceText } from "./read/mod.ts";
import type { PlanContext } from "./plan_context.ts";
import type { PlanService, ServiceReady } from "./types.ts";
import { scalarTemplate, sentText, type TemplateScope } from "./traffic/mod.ts";

/** What an environment variable may be named (POSIX: letters, digits and `_`). */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** `${env.NAME}` in a command: the plan's substitution, which `sh` would refuse. */
const ENV_IN_COMMAND = /\$\{env\.([A-Za-z_][A-Za-z0-9_]*)\}/;

/**
 * Reads `service:`. `scope` is the plan's template scope: its values may read `${env.NAME}`
 * (secrets), never a drawn value. Returns undefined when anything is wrong (each problem is an
 * issue of its own).
 */
export function readService(
  reader: PlanReader,
  node: YamlNode,
  ctx: PlanContext,
  scope: TemplateScope,
): PlanService | undefined {
  if (node.kind === "scalar" && typeof node.value === "string") {
    reader.error(
      node,
      "service",
      "`service` must be a mapping",
      `write \`service: { start: ${JSON.stringify(node.value)} }\``,
    );
    return undefined;
  }
  const before = reader.issues.filter((i) => i.severity === "error").length;
  const s = readSection(reader, node, "service", "service");
  if (s === undefined) return undefined;
  const command = s.get<string>("start");
  const commandNode = s.at("start");
  const secretInCommand = command === undefined ? null : ENV_IN_COMMAND.exec(command);
  if (secretInCommand && commandNode?.kind === "scalar") {
    const shift = commandNode.contentOffset - commandNode.offset;
    reader.errorAt(
      { line: commandNode.pos.line, col: commandNode.pos.col + shift + secretInCommand.index },
      secretInCommand[0].length,
      "service.start",
      `the command reads \`${secretInCommand[0]}\`, which the shell cannot`,
      `write \`$${secretInCommand[1]}\`: the shell reads the environment itself`,
    );
  }
  const ready = s.has("ready") ? readReady(reader, s.at("ready")!) : undefined;
  const readyTimeoutMs = s.get<number>("timeout");
  const env = s.has("env") ? readEnv(reader, s.at("env")!, scope) : {};
  const cwd = joinPath(ctx.planDir, s.get<string>("cwd") ?? ".");
  const cwdNode = s.at("cwd");
  if (cwdNode && s.get<string>("cwd") && ctx.isFolder && !ctx.isFolder(cwd)) {
    reader.error(
      cwdNode,
      "service.cwd",
      `the folder \`${sourceText(cwdNode)}\` (${cwd}) does not exist`,
      "`cwd` is relative to the plan's folder",
    );
  }
  const failed = reader.issues.filter((i) => i.severity === "error").length > before;
  if (failed || command === undefined || readyTimeoutMs === undefined) return undefined;
  return {
    command,
    ...(ready === undefined ? {} : { ready }),
    readyTimeoutMs,
    env,
    cwd,
    line: node.pos.line,
  };
}

/** `ready`: an http(s) URL, or a port (a number, or its digits as text). */
function readReady(reader: PlanReader, node: YamlNode): ServiceReady | undefined {
  const path = "service.ready";
  if (node.kind === "scalar" && typeof node.value === "number") {
    const port = reader.number(node, path, { integer: true, min: 1, max: 65535 });
    return port === undefined ? undefined : { port };
  }
  const text = reader.string(node, path);
  if (text === undefined) return undefined;
  if (/^\d+$/.test(text.trim())) {
    const port = Number(text.trim());
    if (port >= 1 && port <= 65535) return { port };
    reader.error(node, path, `\`${path}\` must be a port from 1 to 65535, not ${text}`);
    return undefined;
  }
  let url: URL | undefined;
  try {
    url = /^https?:\/\//i.test(text) ? new URL(text) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || url.hostname === "") {
    const bare = text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/^:/, "127.0.0.1:");
    const port = /:(\d+)/.exec(bare)?.[1];
    reader.error(
      node,
      path,
      `\`${text}\` is neither an http(s) URL nor a port`,
      `write \`http://${bare}\`${port ? `, or the port alone: \`ready: ${port}\`` : ""}`,
    );
    return undefined;
  }
  return { url: text };
}

/** `env`: names to values; numbers and true/false are their text, `${env.NAME}` is substituted. */
function readEnv(
  reader: PlanReader,
  node: YamlNode,
  scope: TemplateScope,
): Record<string, string> {
  const env: Record<string, string> = {};
  if (node.kind !== "map") {
    reader.error(
      node,
      "service.env",
      "`service.env` must be a mapping of variable names to values",
      "e.g. `env: { PORT: 3917 }`",
    );
    return env;
  }
  const onceScope: TemplateScope = {
    ...scope,
    captures: new Set(),
    sentOnce: "the service's environment is set once, when it starts: a value drawn per " +
      "request cannot go there",
  };
  for (const entry of node.entries) {
    const path = join("service.env", entry.key);
    if (!ENV_NAME.test(entry.key)) {
      reader.errorAt(
        entry.keyPos,
        entry.key.length,
        path,
        `\`${entry.key}\` is not an environment variable name`,
        "letters, digits and `_`, not starting with a digit",
      );
      continue;
    }
    const value = entry.value;
    const text = value.kind === "scalar" && typeof value.value === "boolean"
      ? String(value.value)
      : reader.string(value, path, true);
    if (text === undefined) continue;
    const t = scalarTemplate(reader, value, path, text, onceScope, "raw");
    env[entry.key] = sentText(t.parts);
  }
  return env;
}
