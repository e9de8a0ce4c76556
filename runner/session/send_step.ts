/**
 * Sending one setup or teardown step (captures already bound): once, with Deno's HTTP client,
 * outside the engine, the schedule and the histograms. Redirects are not followed (a 302 is the
 * step's status, judged by its `expect`), and at most {@linkcode MAX_STEP_BODY_BYTES} of the
 * response body are read. A step to the origin a plan loads over HTTP/2 goes in HTTP/2 too (h2c
 * with prior knowledge, or ALPN `h2` alone); a step to another origin (a login service) goes as
 * fetch agrees with it. A certificate Deno's TLS refuses is named with the fix, as the pre-flight
 * names it.
 *
 * @module
 */
import type { RequestBasics } from "../plan/mod.ts";
import { sentText } from "../plan/mod.ts";
import { MAX_BODY_FILE_BYTES } from "../plan/mod.ts";
import { readRegularFile } from "../model/mod.ts";
import { err, ok, problem, type Result } from "../model/mod.ts";
import { CA_AS_END_ENTITY, caUsedAsEndEntity, tlsProblem } from "../engine/mod.ts";
import type { StepResponse } from "../engine/mod.ts";

/** A step's response body is read up to this many bytes (a capture looks no further). */
export const MAX_STEP_BODY_BYTES = 1024 * 1024;

/** A step, bound: every capture it reads is a secret part by now. */
export type BoundStep = RequestBasics;

/** A step's answer: its status and response. */
export interface StepAnswer {
  status: number;
  response: StepResponse;
}

/** What came of sending a step: the answer or why there is none, and how long it took. */
export type StepExchange = Result<StepAnswer> & { durationMs: number };

/** Options of {@linkcode sendStep}. */
export interface SendStepOptions {
  /** PEM certificates to trust for https. */
  caCerts?: string[];
  /** Stops the step. */
  signal?: AbortSignal;
  /**
   * The origin the plan loads over HTTP/2 (`load.http: 2`): a step to it is sent in HTTP/2 only,
   * as the load is (h2c with prior knowledge over `http://`, ALPN `h2` alone over `https://`).
   */
  http2Origin?: string;
  /** The clock durations are read from, in milliseconds. */
  now?: () => number;
}

/**
 * Sends `step` and reads its response, or says why there is none (refused, timed out, stopped).
 */
export async function sendStep(step: BoundStep, options: SendStepOptions): Promise<StepExchange> {
  const now = options.now ?? (() => performance.now());
  const t = step.template;
  const url = t ? new URL(step.url).origin + sentText(t.target) : step.url;
  const headers = new Headers(
    t
      ? t.headers.map((h) => [h.name, sentText(h.parts)])
      : step.headers.map((h) => [h.name, h.value]),
  );
  const started = now();
  let body: string | Uint8Array | undefined = t?.body ? sentText(t.body) : undefined;
  if (body === undefined && step.body?.kind === "file") {
    const read = await readRegularFile(step.body.path, MAX_BODY_FILE_BYTES);
    if (!read.ok) return { ...err(problem(`body file ${read.problems[0].reason}`)), durationMs: 0 };
    body = read.value;
  } else if (body === undefined && step.body?.kind !== "file") body = step.body?.text;
  const http2Only = options.http2Origin !== undefined &&
    new URL(url).origin === options.http2Origin;
  const client = options.caCerts?.length || http2Only
    ? Deno.createHttpClient({
      ...(options.caCerts?.length ? { caCerts: options.caCerts } : {}),
      ...(http2Only ? { http1: false, http2: true } : {}),
    })
    : undefined;
  const timeout = AbortSignal.timeout(step.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const response = await fetch(url, {
      method: step.method,
      headers,
      ...(body === undefined ? {} : { body: body as BodyInit }),
      redirect: "manual",
      signal,
      ...(client ? { client } : {}),
    });
    const { bodyText, cut } = await readBounded(response);
    const cookies = response.headers.getSetCookie();
    return {
      ...ok({
        status: response.status,
        response: {
          header: (name) => {
            if (name === "set-cookie") return cookies;
            const value = response.headers.get(name);
            return value === null ? [] : [value];
          },
          names: () => [...response.headers.keys()].map((k) => `\`${k}\``).join(", ") || "none",
          bodyText,
          ...(cut ? { cutAtBytes: MAX_STEP_BODY_BYTES } : {}),
        },
      }),
      durationMs: now() - started,
    };
  } catch (e) {
    // fetch says "fetch failed"; why is in its cause (a certificate refused, say).
    const cause = (e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : "";
    const error = timeout.aborted
      ? `no answer within its timeout (${step.timeoutMs} ms)`
      : options.signal?.aborted
      ? "stopped"
      : caUsedAsEndEntity(cause)
      ? CA_AS_END_ENTITY
      : /invalid peer certificate: /.test(cause)
      ? tlsProblem(new URL(url), cause)
      : (e as Error).message;
    return { ...err(problem(error)), durationMs: now() - started };
  } finally {
    client?.close();
  }
}

async function readBounded(response: Response): Promise<{ bodyText: string; cut: boolean }> {
  if (response.body === null) return { bodyText: "", cut: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  const reader = response.body.getReader();
  while (size < MAX_STEP_BODY_BYTES) {
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  // A body of exactly the limit has ended only if the next read says so.
  if (!ended && size === MAX_STEP_BODY_BYTES) ended = (await reader.read()).done;
  await reader.cancel().catch(() => {});
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) (bytes.set(c, at), at += c.length);
  return {
    bodyText: new TextDecoder().decode(bytes.subarray(0, MAX_STEP_BODY_BYTES)),
    cut: !ended,
  };
}
