/**
 * Cost of converting one prepared HTTP/1.1 request to an HTTP/2 header block, as the engine does
 * for every templated request it sends over HTTP/2: a request like `bench/template_cost.sh`'s
 * templated one (a uuid in the path and a header, a bearer token, a JSON body), and peers.sh's
 * fixed GET. "run's encoder" is the engine's case (names known after the first send); "fresh" is
 * what a fixed request costs once per run. Run with `deno bench bench/micro/h2_request_bench.ts`.
 *
 * @module
 */
import { h2Request, H2RequestEncoder } from "../../runner/engine/http2/mod.ts";

const templated = new TextEncoder().encode(
  "POST /api/orders/8f3a2c1e-5b7d-4e2a-9c1f-0a1b2c3d4e5f?user=12345 HTTP/1.1\r\n" +
    "Host: 127.0.0.1:8080\r\nUser-Agent: tailgate/0.9.0\r\nAccept: */*\r\n" +
    "Content-Type: application/json\r\nAuthorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc.def\r\n" +
    "X-Request-Id: 8f3a2c1e-5b7d-4e2a-9c1f-0a1b2c3d4e5f\r\nContent-Length: 62\r\n\r\n" +
    '{"id":"8f3a2c1e-5b7d-4e2a-9c1f-0a1b2c3d4e5f","qty":3,"sku":"A1"}',
);
const fixed = new TextEncoder().encode(
  "GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: tailgate/0.9.0\r\n\r\n",
);
const encoder = new H2RequestEncoder("http");

Deno.bench("templated POST, the run's encoder", { group: "templated" }, () => {
  encoder.encode(templated);
});
Deno.bench("templated POST, a fresh encoder", { group: "templated" }, () => {
  h2Request(templated, "http");
});
Deno.bench("fixed GET, the run's encoder", () => {
  encoder.encode(fixed);
});
