/**
 * A login service for tests, on 127.0.0.1: POST /login checks the password (from the JSON body)
 * and answers a token and a session cookie; /orders answers 200 only to that token (403 else);
 * DELETE /sessions/… answers 204; /health answers 200. Every request is recorded. Run as a
 * program (`deno run -A login_server.ts PORT LOG`) it serves on PORT and appends each request
 * to LOG as a JSON line, for `--start`.
 *
 * @module
 */

/** The password the service takes, and the token and session it hands out. */
export const PASSWORD = "pw-Secret-7781";
export const TOKEN = "tok-Zq81-from-login";
export const SESSION = "s3ss-42";

/** One request as the service saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  auth: string | null;
  body: string;
}

/** How the service misbehaves, when it should. */
export interface LoginServerOptions {
  /** Every login answers this status (and no token). */
  loginStatus?: number;
  /** The token's key in the login's JSON (default `access_token`). */
  tokenKey?: string;
  /** Each order takes this long. */
  ordersMs?: number;
  /** The login takes this long. */
  loginMs?: number;
  /** Logins after this many answer 503 (a login service that goes down). */
  loginsAllowed?: number;
  /** The login's JSON carries a field this many bytes long after the token. */
  padBytes?: number;
}

/** Starts the service; `seen` fills as requests arrive. */
export function loginServer(
  options: LoginServerOptions = {},
  port = 0,
  onRequest?: (seen: SeenRequest) => void,
) {
  const seen: SeenRequest[] = [];
  const server = Deno.serve({ port, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const body = await req.text();
    if (url.pathname === "/health") return new Response("up");
    const one = {
      method: req.method,
      path: url.pathname,
      auth: req.headers.get("authorization"),
      body,
    };
    seen.push(one);
    onRequest?.(one);
    if (url.pathname === "/login") {
      if (options.loginMs) await new Promise((r) => setTimeout(r, options.loginMs));
      const ok = JSON.parse(body).password === PASSWORD;
      const logins = seen.filter((s) => s.path === "/login").length;
      const down = options.loginsAllowed !== undefined && logins > options.loginsAllowed;
      if (options.loginStatus !== undefined || !ok || down) {
        return new Response(`{"error":"no login for ${PASSWORD}, see /help"}`, {
          status: down ? 503 : options.loginStatus ?? 401,
        });
      }
      const token = { [options.tokenKey ?? "access_token"]: TOKEN };
      const pad = options.padBytes ? { profile: "x".repeat(options.padBytes) } : {};
      return new Response(JSON.stringify({ ...token, ...pad }), {
        headers: {
          "set-cookie": `sid=${SESSION}; Path=/; HttpOnly`,
          "content-type": "application/json",
        },
      });
    }
    if (url.pathname.startsWith("/orders")) {
      if (options.ordersMs) await new Promise((r) => setTimeout(r, options.ordersMs));
      const ok = req.headers.get("authorization") === `Bearer ${TOKEN}`;
      return new Response("ok", { status: ok ? 200 : 403 });
    }
    if (url.pathname.startsWith("/sessions/")) return new Response(null, { status: 204 });
    return new Response("no", { status: 404 });
  });
  const addr = server.addr as Deno.NetAddr;
  return { seen, server, url: `http://127.0.0.1:${addr.port}` };
}

/** The requests a login server run as a program logged to `path`. */
export async function loggedRequests(path: string): Promise<SeenRequest[]> {
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

/** The command that starts a login server on `port`, logging to `log` (for `--start`). */
export function loginServerCommand(port: number, log: string): string {
  const self = new URL(import.meta.url).pathname;
  return `exec ${Deno.execPath()} run -A ${self} ${port} ${log}`;
}

if (import.meta.main) {
  const [port, log] = Deno.args;
  loginServer({}, Number(port), (one) => {
    Deno.writeTextFileSync(log, JSON.stringify(one) + "\n", { append: true });
  });
}

/** The plan against `target`: log in, send the token, end the session. */
export function loginPlan(target: string, extra = ""): string {
  return `name: login-first
target: ${target}
setup:
  - name: login
    method: POST
    path: /login
    body: { json: { user: ci, password: "\${env.API_PASSWORD}" } }
    expect: 200
    capture:
      token: { json: /access_token }
      session: { header: set-cookie }
requests:
  - path: /orders
    headers: { Authorization: "Bearer {{token}}" }
teardown:
  - { method: DELETE, path: "/sessions/{{session}}" }
${extra}`;
}
