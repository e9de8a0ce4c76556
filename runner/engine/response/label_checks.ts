/**
 * A label's checks on the engine thread: made once per run from the plan's `check:`, evaluated on
 * each completed response with {@linkcode evaluateCheck}. The response is read through one
 * {@linkcode ResponseView}: its body decoded to text at most once, parsed as JSON at most once,
 * however many checks read it. Used for measured requests (the dispatcher) and journey steps.
 *
 * @module
 */
import type { PlanCheck, StatusExpectation } from "../../plan/mod.ts";
import { statusExpected } from "../../plan/runtime/mod.ts";
import type { ResponseOutcome } from "../types.ts";
import type { ResponseHeaders } from "../kept_response.ts";
import { type CheckedResponse, evaluateCheck, parseJson, regex } from "./evaluate_check.ts";
import type { StepResponse } from "./capture_value.ts";

const NO_HEADERS: ResponseHeaders = { header: () => [], names: () => "no headers" };
const EMPTY = new Uint8Array(0);
const UTF8 = new TextDecoder();
const NOT_READ = Symbol("not read");

/**
 * A gRPC message's decoder: its JSON form (proto3 JSON: 64-bit integers as strings, enums by
 * name), undefined for bytes that are no such message.
 */
export type MessageDecoder = (message: Uint8Array) => { value: unknown } | undefined;

/**
 * A completed response as checks and captures read it: its status, kept headers and body (text
 * and JSON made on first read, then reused). One view is reused for response after response:
 * {@linkcode ResponseView.of} points it at the next.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ResponseView } from "./label_checks.ts";
 * const body = new TextEncoder().encode('{"id":7}');
 * const view = new ResponseView().of({ status: 200, body, bodyBytes: body.length } as never);
 * assert.deepEqual([view.bodyText, view.json()?.value], ['{"id":7}', { id: 7 }]);
 * ```
 */
export class ResponseView implements CheckedResponse, StepResponse {
  status = 0;
  bodyBytes = 0;
  cutAtBytes: number | undefined = undefined;
  #body: Uint8Array = EMPTY;
  #headers: ResponseHeaders = NO_HEADERS;
  #text: string | undefined = undefined;
  #json: { value: unknown } | undefined | typeof NOT_READ = NOT_READ;
  #decode: MessageDecoder | undefined = undefined;

  /**
   * Points the view at `outcome` (its kept body and headers); returns the view. With `decode` (a
   * gRPC call's), the body is a protobuf message, read as its JSON form's text.
   */
  of(outcome: ResponseOutcome, decode?: MessageDecoder): this {
    this.#decode = decode;
    this.status = outcome.status;
    this.#body = outcome.body ?? EMPTY;
    this.bodyBytes = outcome.bodyBytes ?? this.#body.length;
    this.cutAtBytes = outcome.bodyCut ? this.#body.length : undefined;
    this.#headers = outcome.headers ?? NO_HEADERS;
    this.#text = undefined;
    this.#json = NOT_READ;
    return this;
  }

  /** The kept body's bytes (at most the request's `keepBodyBytes`). */
  get body(): Uint8Array {
    return this.#body;
  }

  /**
   * The kept body as UTF-8 text, decoded on first read; a gRPC message as the text of its JSON
   * form (empty when the bytes are no such message).
   */
  get bodyText(): string {
    if (this.#text !== undefined) return this.#text;
    if (this.#decode === undefined) return this.#text = UTF8.decode(this.#body);
    const message = this.#decode(this.#body);
    return this.#text = message === undefined ? "" : JSON.stringify(message.value);
  }

  /** The body parsed as JSON on first read: `{ value }`, or undefined when it is not JSON. */
  json(): { value: unknown } | undefined {
    if (this.#json === NOT_READ) this.#json = parseJson(this.bodyText);
    return this.#json;
  }

  /** Values of a kept header, by lower-case name. */
  header(name: string): string[] {
    return this.#headers.header(name);
  }

  /** The kept header names, for a message. */
  names(): string {
    return this.#headers.names();
  }
}

/**
 * One label's checks, ready to evaluate: their regexes compiled when made, a scratch record of
 * which failed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LabelChecks } from "./label_checks.ts";
 * const checks = new LabelChecks([
 *   { kind: "body_contains", contains: "open", text: "body contains open", line: 4 },
 * ], { codes: [], classes: [2] });
 * const body = new TextEncoder().encode("closed");
 * assert.equal(checks.evaluate({ status: 200, body } as never), true);
 * assert.deepEqual([...checks.failed], [1]);
 * ```
 */
export class LabelChecks {
  /** The label's checks, in the plan's order. */
  readonly checks: readonly PlanCheck[];
  /** Per check, after {@linkcode evaluate}: 1 when it failed, else 0. */
  readonly failed: Uint8Array;
  /** The view the last response was read through (reusable by captures until the next). */
  readonly view: ResponseView = new ResponseView();
  readonly #expect: StatusExpectation;
  readonly #decode: MessageDecoder | undefined;

  /**
   * @param checks The label's checks.
   * @param expect The statuses the label takes (its `expect`, or its `status` check's).
   * @param decode A gRPC call's response decoder: its checks read the message's JSON form.
   */
  constructor(checks: readonly PlanCheck[], expect: StatusExpectation, decode?: MessageDecoder) {
    this.#decode = decode;
    this.checks = checks;
    this.failed = new Uint8Array(checks.length);
    this.#expect = expect;
    for (const c of checks) {
      if (c.kind === "header" || c.kind === "body_matches") regex(c.pattern);
      if (c.kind === "json" && c.test.op === "matches") regex(c.test.pattern);
    }
  }

  /**
   * Evaluates every check on a completed response (status > 0, no error), filling
   * {@linkcode failed}. True when the request fails as `check_failed`: a check other than
   * `status` failed while its status was one the label takes (an unexpected status is
   * `unexpected_status`, as `expect` makes it).
   */
  evaluate(outcome: ResponseOutcome): boolean {
    const view = this.view.of(outcome, this.#decode);
    const failed = this.failed;
    let other = false;
    for (let i = 0; i < failed.length; i++) {
      const check = this.checks[i];
      const pass = evaluateCheck(check, view).pass;
      failed[i] = pass ? 0 : 1;
      if (!pass && check.kind !== "status") other = true;
    }
    return other && statusExpected(this.#expect, outcome.status);
  }
}
