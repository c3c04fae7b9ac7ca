/**
 * Typed errors: every server error carries the envelope's `type`, `message`
 * and `field`, the HTTP status and the `x-request-id` of the answer.
 *
 * HakiError
 * ├── HakiConnectionError        the server could not be reached (refused, DNS, timeout)
 * └── HakiApiError               the server answered with an error envelope
 *     ├── InvalidRequestError    400, 413, 422
 *     ├── AuthenticationError    401
 *     ├── PermissionDeniedError  403
 *     ├── NotFoundError          404
 *     ├── ConflictError          409
 *     ├── RateLimitError         429 (after the client's retries)
 *     └── ServerError            5xx
 *
 * The same tree and names as the Python SDK (`haki.client.errors`).
 */

export class HakiError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class HakiConnectionError extends HakiError {}

export interface ApiErrorInit {
  status: number;
  type: string | null;
  field: string | null;
  requestId: string | null;
  payload: Record<string, unknown>;
}

export class HakiApiError extends HakiError {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The envelope's `type`, e.g. `invalid_payload`, `not_found`. */
  readonly type: string | null;
  /** The envelope's `field`: which part of the request was refused, when one was. */
  readonly field: string | null;
  /** The answer's `x-request-id` header, to find the call in the server's log. */
  readonly requestId: string | null;
  /** The whole JSON body of the answer. */
  readonly payload: Record<string, unknown>;

  constructor(message: string, init: ApiErrorInit) {
    const where = init.field ? ` (field ${init.field})` : "";
    const label = init.type ? `${init.status} ${init.type}` : String(init.status);
    super(`[${label}] ${message}${where}`);
    Object.defineProperty(this, "message", { value: message, enumerable: false, writable: true });
    this.status = init.status;
    this.type = init.type;
    this.field = init.field;
    this.requestId = init.requestId;
    this.payload = init.payload;
  }

  /** Same as `requestId`, under the wire's name. */
  get request_id(): string | null {
    return this.requestId;
  }

  override toString(): string {
    const where = this.field ? ` (field ${this.field})` : "";
    const label = this.type ? `${this.status} ${this.type}` : String(this.status);
    return `${this.name}: [${label}] ${this.message}${where}`;
  }
}

export class InvalidRequestError extends HakiApiError {}
export class AuthenticationError extends HakiApiError {}
export class PermissionDeniedError extends HakiApiError {}
export class NotFoundError extends HakiApiError {}
export class ConflictError extends HakiApiError {}
export class RateLimitError extends HakiApiError {}
export class ServerError extends HakiApiError {}

const BY_STATUS: Record<number, typeof HakiApiError> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: InvalidRequestError,
  422: InvalidRequestError,
  429: RateLimitError,
};

export function errorClass(status: number): typeof HakiApiError {
  if (status >= 500) return ServerError;
  return BY_STATUS[status] ?? HakiApiError;
}

/** The typed error for a non-2xx answer, from its envelope when there is one. */
export async function apiError(response: Response): Promise<HakiApiError> {
  const text = await response.text();
  let payload: Record<string, unknown> = {};
  let error: Record<string, unknown> = {};
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === "object" && !Array.isArray(body)) {
      payload = body as Record<string, unknown>;
      const found = payload["error"];
      if (found && typeof found === "object" && !Array.isArray(found)) {
        error = found as Record<string, unknown>;
      }
    }
  } catch {
    // not JSON: the message falls back to the status and the body's start
  }
  const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);
  const message = str(error["message"]) ?? `HTTP ${response.status}: ${text.slice(0, 200)}`;
  const cls = errorClass(response.status);
  return new cls(message, {
    status: response.status,
    type: str(error["type"]),
    field: str(error["field"]),
    requestId: response.headers.get("x-request-id"),
    payload,
  });
}
