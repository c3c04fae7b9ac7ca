/**
 * haki-memory: the TypeScript client of the Haki memory server.
 *
 * `HakiClient` wraps the HTTP API (typed results, typed errors, retries on
 * 429/503, idempotency keys on capture); `render(packet)` makes the
 * `<haki_memory>` block a prompt carries. No runtime dependency: it needs
 * `fetch`, `AbortSignal.timeout` and `crypto.randomUUID` (Node 18+, Deno,
 * Bun, browsers).
 */

export { DEFAULT_URL, HakiClient, RetryPolicy, VERSION } from "./client.js";
export type { ClientOptions } from "./client.js";
export {
  AuthenticationError,
  ConflictError,
  HakiApiError,
  HakiConnectionError,
  HakiError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
} from "./errors.js";
export { CLOSE, OPEN, render } from "./render.js";
export type * from "./types.js";
