/**
 * `HakiClient`: the Haki HTTP API over `fetch`, with the Python SDK's
 * method set, retry policy and idempotency rules (docs/sdk.md).
 *
 * Only 429 and 503 are retried (the server says "later", usually with a
 * `Retry-After`); any other 4xx is the caller's mistake and is thrown at
 * once. A transport failure is retried only for calls safe to send twice
 * (reads, `context`, and `capture`, whose events carry idempotency keys),
 * or when the connection was refused (nothing reached the server).
 */

import { HakiConnectionError, apiError } from "./errors.js";
import type {
  ApiKey,
  CaptureResult,
  ConflictList,
  ConsolidateResult,
  ContextResult,
  DeviceCode,
  DeviceLogin,
  Event,
  EventIn,
  Fact,
  FactPage,
  FactWrite,
  FeedbackReceipt,
  ForgetReceipt,
  Health,
  Instant,
  Job,
  JobList,
  KeyList,
  Message,
  Resolution,
  RevokedKey,
  Stats,
  SubjectPage,
  Timeline,
  Trace,
  TracePage,
} from "./types.js";

export const DEFAULT_URL = "http://127.0.0.1:8100";
export const VERSION = "0.1.0";
const RETRY_STATUS = new Set([429, 503]);

// OpenAI roles mapped to the actor that speaks: an assistant's words are the
// agent's statements, stored with the lower trust the server gives agents.
const ROLE_ACTORS: Record<string, string> = {
  user: "user",
  assistant: "agent",
  system: "system",
  tool: "tool",
};

/** `maxRetries` resends after the first attempt; waits grow by full jitter. */
export class RetryPolicy {
  readonly maxRetries: number;
  readonly backoffBaseS: number;
  readonly backoffMaxS: number;
  readonly maxRetryAfterS: number;

  constructor(
    options: { maxRetries?: number; backoffBaseS?: number; backoffMaxS?: number; maxRetryAfterS?: number } = {},
  ) {
    this.maxRetries = options.maxRetries ?? 3;
    this.backoffBaseS = options.backoffBaseS ?? 0.5;
    this.backoffMaxS = options.backoffMaxS ?? 8;
    this.maxRetryAfterS = options.maxRetryAfterS ?? 60;
  }

  backoff(attempt: number): number {
    return Math.random() * Math.min(this.backoffMaxS, this.backoffBaseS * 2 ** attempt);
  }

  /** Seconds from a `Retry-After` header (seconds or an HTTP date), capped; null if unreadable. */
  retryAfter(value: string | null, now: number = Date.now()): number | null {
    if (!value || !value.trim()) return null;
    const text = value.trim();
    let seconds = /^[+-]?(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : NaN;
    if (Number.isNaN(seconds)) {
      const when = Date.parse(text);
      if (Number.isNaN(when)) return null;
      seconds = (when - now) / 1000;
    }
    return Math.min(Math.max(seconds, 0), this.maxRetryAfterS);
  }

  /** Waits `seconds`; a subclass may record or shorten the waits (tests do). */
  sleep(seconds: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }

  /** Seconds to wait before resending, or null to stop here. */
  delay(attempt: number, response: Response | null): number | null {
    if (attempt >= this.maxRetries) return null;
    if (response) {
      if (!RETRY_STATUS.has(response.status)) return null;
      const told = this.retryAfter(response.headers.get("retry-after"));
      if (told !== null) return told;
    }
    return this.backoff(attempt);
  }
}

export interface ClientOptions {
  /** Defaults to `HAKI_URL`, else `http://127.0.0.1:8100`. */
  baseUrl?: string;
  /** Defaults to `HAKI_API_KEY`; sent as `Authorization: Bearer …`. */
  apiKey?: string;
  /** Used by every call not given one. */
  projectId?: string;
  /** Per request, in seconds (default 10). */
  timeout?: number;
  maxRetries?: number;
  retry?: RetryPolicy;
  /** A `fetch` of your own (tests, proxies); defaults to the global one. */
  fetch?: typeof fetch;
}

type Query = Record<string, string | number | boolean | Date | null | undefined>;

interface Call {
  method: string;
  path: string;
  query?: Query;
  body?: Record<string, unknown>;
  /** Safe to send again after a transport failure. */
  replayable?: boolean;
}

function env(name: string): string | undefined {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return proc?.env?.[name] || undefined;
}

function wire(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/** The object without its undefined/null members, dates as ISO strings. */
function compact(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== null) out[k] = wire(v);
  return out;
}

function newKey(): string {
  return `sdk-${globalThis.crypto.randomUUID().replaceAll("-", "")}`;
}

/** `base` plus `micros` microseconds, as ISO-8601 with microseconds (what `add` orders by). */
function isoPlusMicros(base: Date, micros: number): string {
  const total = base.getTime() * 1000 + micros;
  const ms = Math.floor(total / 1000);
  const sub = String(total % 1000).padStart(3, "0");
  return new Date(ms).toISOString().replace("Z", `${sub}+00:00`);
}

function refused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code === "ECONNREFUSED";
}

export class HakiClient {
  readonly baseUrl: string;
  readonly projectId: string | undefined;
  readonly retry: RetryPolicy;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: ClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? env("HAKI_URL") ?? DEFAULT_URL).replace(/\/+$/, "");
    this.apiKey = options.apiKey ?? env("HAKI_API_KEY");
    this.projectId = options.projectId;
    this.timeoutMs = (options.timeout ?? 10) * 1000;
    this.retry = options.retry ?? new RetryPolicy({ maxRetries: options.maxRetries ?? 3 });
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  private project(projectId?: string): string {
    const project = projectId || this.projectId;
    if (!project) throw new TypeError("projectId is required (pass it, or give the client a projectId)");
    return project;
  }

  private url(path: string, query?: Query): string {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v !== undefined && v !== null) url.searchParams.set(k, String(wire(v)));
    }
    return url.toString();
  }

  private async run<T>(call: Call): Promise<T> {
    const headers: Record<string, string> = { "User-Agent": `haki-client-ts/${VERSION}` };
    if (this.apiKey) headers["Authorization"] = `Bearer ${this.apiKey}`;
    if (call.body !== undefined) headers["Content-Type"] = "application/json";
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const url = this.url(call.path, call.query);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetchImpl(url, {
          method: call.method,
          headers,
          body,
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (error) {
        const wait = this.retry.delay(attempt, null);
        if (wait === null || !(call.replayable || refused(error))) {
          const kind = (error as Error)?.name === "TimeoutError" ? "timed out" : "failed";
          throw new HakiConnectionError(`connection to Haki at ${this.baseUrl} ${kind}: ${String(error)}`, {
            cause: error,
          });
        }
        await this.retry.sleep(wait);
        continue;
      }
      if (response.ok) return (await response.json()) as T;
      const wait = this.retry.delay(attempt, response);
      if (wait === null) throw await apiError(response);
      await response.body?.cancel();
      await this.retry.sleep(wait);
    }
  }

  // -- the calls of the Python SDK, same names in camelCase --

  health(): Promise<Health> {
    return this.run({ method: "GET", path: "/health", replayable: true });
  }

  /**
   * Write events. Each event without an `idempotency_key` gets one, made once
   * per call and resent unchanged by every retry, so a retry never duplicates.
   */
  capture(events: EventIn[], options: { idempotencyKey?: string } = {}): Promise<CaptureResult> {
    const now = new Date();
    const keyed = events.map((event) => {
      const item = compact({ occurred_at: now, ...event });
      if (!options.idempotencyKey && !item["idempotency_key"]) item["idempotency_key"] = newKey();
      if (!item["project_id"]) item["project_id"] = this.project();
      return item;
    });
    const body = compact({ events: keyed, idempotency_key: options.idempotencyKey });
    return this.run({ method: "POST", path: "/v1/capture", body, replayable: true });
  }

  /** Capture OpenAI-style `[{role, content, name?}]` messages, one event each, in order. */
  add(
    messages: Message[],
    options: {
      subjectId: string;
      projectId?: string;
      threadId?: string;
      occurredAt?: Date;
      orgId?: string;
      agentId?: string;
      runId?: string;
      kind?: string;
    },
  ): Promise<CaptureResult> {
    const base = options.occurredAt ?? new Date();
    const project = this.project(options.projectId);
    const events = messages.map((message, i): EventIn => {
      if (!message || typeof message !== "object" || !("role" in message)) {
        throw new TypeError(`messages[${i}] must be an object with a 'role'`);
      }
      const role = String(message.role);
      return compact({
        org_id: options.orgId,
        project_id: project,
        subject_id: options.subjectId,
        thread_id: options.threadId,
        agent_id: options.agentId,
        run_id: options.runId,
        actor_type: ROLE_ACTORS[role] ?? "agent",
        kind: options.kind ?? "conversation.message",
        // A microsecond apart, so the timeline keeps the messages' order.
        occurred_at: isoPlusMicros(base, i),
        payload: { ...message },
      }) as EventIn;
    });
    return this.capture(events);
  }

  /** The context packet for `query`; `render(result)` makes the prompt block. */
  context(
    subjectId: string,
    query: string,
    options: { projectId?: string; purpose?: string; budgetTokens?: number; asOf?: Instant } = {},
  ): Promise<ContextResult> {
    const body = compact({
      project_id: this.project(options.projectId),
      subject_id: subjectId,
      query,
      purpose: options.purpose,
      budget_tokens: options.budgetTokens,
      as_of: options.asOf,
    });
    return this.run({ method: "POST", path: "/v1/context", body, replayable: true });
  }

  inspect(traceId: string, options: { subjectId: string; projectId?: string }): Promise<Trace> {
    const query = { project_id: this.project(options.projectId), subject_id: options.subjectId };
    return this.run({ method: "GET", path: `/v1/inspect/${encodeURIComponent(traceId)}`, query, replayable: true });
  }

  /** One page of the subject's events, oldest first; `iterTimeline` walks every page. */
  timeline(
    subjectId: string,
    options: { projectId?: string; limit?: number; cursor?: string } = {},
  ): Promise<Timeline> {
    const query = {
      project_id: this.project(options.projectId),
      subject_id: subjectId,
      limit: options.limit,
      cursor: options.cursor,
    };
    return this.run({ method: "GET", path: "/v1/timeline", query, replayable: true });
  }

  async *iterTimeline(
    subjectId: string,
    options: { projectId?: string; pageSize?: number } = {},
  ): AsyncGenerator<Event> {
    let cursor: string | undefined;
    for (;;) {
      const page = await this.timeline(subjectId, {
        projectId: options.projectId,
        limit: options.pageSize ?? 500,
        cursor,
      });
      yield* page.events;
      if (!page.next_cursor) return;
      cursor = page.next_cursor;
    }
  }

  event(eventId: string, options: { projectId?: string } = {}): Promise<Event> {
    const query = { project_id: this.project(options.projectId) };
    return this.run({ method: "GET", path: `/v1/events/${encodeURIComponent(eventId)}`, query, replayable: true });
  }

  /** Run pending jobs now (admin key or dev mode); prefer `consolidateSubject`. */
  async consolidate(options: { projectId?: string; maxJobs?: number } = {}): Promise<ConsolidateResult> {
    const body = compact({ project_id: options.projectId, max_jobs: options.maxJobs });
    const out = await this.run<ConsolidateResult>({
      method: "POST",
      path: "/v1/consolidate",
      body: Object.keys(body).length ? body : undefined,
    });
    return withProcessed(out);
  }

  async consolidateSubject(options: { subjectId: string; projectId?: string }): Promise<ConsolidateResult> {
    const query = { project_id: this.project(options.projectId), subject_id: options.subjectId };
    return withProcessed(await this.run({ method: "POST", path: "/v1/consolidate/subject", query }));
  }

  /** Facts in every status unless `status` is given; `asOf`/`knownAt` travel in time. */
  facts(options: {
    subjectId: string;
    projectId?: string;
    status?: string;
    asOf?: Instant;
    knownAt?: Instant;
    limit?: number;
    cursor?: string;
  }): Promise<FactPage> {
    const query = {
      project_id: this.project(options.projectId),
      subject_id: options.subjectId,
      status: options.status,
      as_of: options.asOf,
      known_at: options.knownAt,
      limit: options.limit,
      cursor: options.cursor,
    };
    return this.run({ method: "GET", path: "/v1/facts", query, replayable: true });
  }

  fact(factId: string, options: { projectId?: string } = {}): Promise<Fact> {
    const query = { project_id: this.project(options.projectId) };
    return this.run({ method: "GET", path: `/v1/facts/${encodeURIComponent(factId)}`, query, replayable: true });
  }

  /** Assert a fact as a person would (`POST /v1/facts`): a trusted source. Returns the fact in force. */
  async createFact(fact: {
    subjectId: string;
    predicate: string;
    value: unknown;
    projectId?: string;
    subjectType?: string;
    orgId?: string;
    qualifiers?: Record<string, unknown>;
    factKind?: string;
    volatility?: string;
    confidence?: number;
    validFrom?: Instant;
    reason?: string;
  }): Promise<Fact> {
    const body = compact({
      project_id: this.project(fact.projectId),
      subject_id: fact.subjectId,
      subject_type: fact.subjectType,
      org_id: fact.orgId,
      predicate: fact.predicate,
      qualifiers: fact.qualifiers,
      fact_kind: fact.factKind,
      volatility: fact.volatility,
      confidence: fact.confidence,
      valid_from: fact.validFrom,
      reason: fact.reason,
    });
    body["value"] = fact.value;
    const out = await this.run<FactWrite>({ method: "POST", path: "/v1/facts", body });
    return out.fact;
  }

  /** A new version of the fact with `value`; the old one is superseded. */
  async correctFact(
    factId: string,
    value: unknown,
    options: { projectId?: string; expectedVersion?: number; reason?: string; validFrom?: Instant } = {},
  ): Promise<Fact> {
    const body = compact({
      project_id: this.project(options.projectId),
      expected_version: options.expectedVersion,
      reason: options.reason,
      valid_from: options.validFrom,
    });
    body["value"] = value;
    const out = await this.run<FactWrite>({ method: "PATCH", path: `/v1/facts/${encodeURIComponent(factId)}`, body });
    return out.fact;
  }

  setFactStatus(
    factId: string,
    status: string,
    options: { projectId?: string; expectedVersion?: number; reason?: string } = {},
  ): Promise<Fact> {
    const body = compact({
      project_id: this.project(options.projectId),
      status,
      expected_version: options.expectedVersion,
      reason: options.reason,
    });
    return this.run({ method: "POST", path: `/v1/facts/${encodeURIComponent(factId)}/status`, body });
  }

  forget(
    options: { projectId?: string; mode?: "disable" | "delete" | string; subjectId?: string; factId?: string } = {},
  ): Promise<ForgetReceipt> {
    const body = compact({
      project_id: this.project(options.projectId),
      subject_id: options.subjectId,
      fact_id: options.factId,
      mode: options.mode ?? "disable",
    });
    return this.run({ method: "POST", path: "/v1/forget", body });
  }

  feedback(options: {
    rating: "useful" | "irrelevant" | "incorrect";
    projectId?: string;
    traceId?: string;
    factId?: string;
    comment?: string;
    subjectId?: string;
  }): Promise<FeedbackReceipt> {
    const body = compact({
      project_id: this.project(options.projectId),
      subject_id: options.subjectId,
      trace_id: options.traceId,
      fact_id: options.factId,
      rating: options.rating,
      comment: options.comment,
    });
    return this.run({ method: "POST", path: "/v1/feedback", body });
  }

  conflicts(
    options: { projectId?: string; subjectId?: string; status?: string | null; limit?: number } = {},
  ): Promise<ConflictList> {
    const query = {
      project_id: this.project(options.projectId),
      subject_id: options.subjectId,
      status: options.status === undefined ? "open" : options.status,
      limit: options.limit,
    };
    return this.run({ method: "GET", path: "/v1/conflicts", query, replayable: true });
  }

  resolveConflict(conflictId: string, options: { keepFactId: string; projectId?: string }): Promise<Resolution> {
    const body = { project_id: this.project(options.projectId), keep_fact_id: options.keepFactId };
    return this.run({ method: "POST", path: `/v1/conflicts/${encodeURIComponent(conflictId)}/resolve`, body });
  }

  /** Close the set by disabling its candidate members (e.g. a quarantined one). */
  dismissConflict(conflictId: string, options: { projectId?: string; reason?: string } = {}): Promise<Resolution> {
    const body = compact({ project_id: this.project(options.projectId), dismiss: true, reason: options.reason });
    return this.run({ method: "POST", path: `/v1/conflicts/${encodeURIComponent(conflictId)}/resolve`, body });
  }

  jobs(options: { projectId?: string; status?: string; limit?: number } = {}): Promise<JobList> {
    const query = { project_id: this.project(options.projectId), status: options.status, limit: options.limit };
    return this.run({ method: "GET", path: "/v1/jobs", query, replayable: true });
  }

  /** Put a failed consolidation job back in the queue. */
  retryJob(jobId: string, options: { projectId?: string } = {}): Promise<Job> {
    const body = { project_id: this.project(options.projectId) };
    return this.run({ method: "POST", path: `/v1/jobs/${encodeURIComponent(jobId)}/retry`, body });
  }

  stats(options: { projectId?: string } = {}): Promise<Stats> {
    const query = { project_id: this.project(options.projectId) };
    return this.run({ method: "GET", path: "/v1/stats/overview", query, replayable: true });
  }

  /** A new key for the project; `result.key` is the secret, shown this once. */
  createKey(options: { projectId?: string; orgId?: string; label?: string } = {}): Promise<ApiKey> {
    const body = compact({ project_id: this.project(options.projectId), org_id: options.orgId, label: options.label });
    return this.run({ method: "POST", path: "/v1/keys", body });
  }

  listKeys(options: { projectId?: string } = {}): Promise<KeyList> {
    const query = { project_id: options.projectId ?? this.projectId };
    return this.run({ method: "GET", path: "/v1/keys", query, replayable: true });
  }

  revokeKey(keyId: string): Promise<RevokedKey> {
    return this.run({ method: "DELETE", path: `/v1/keys/${encodeURIComponent(keyId)}`, replayable: true });
  }

  /** One page of the project's subjects (`subject_id` order) with their counts. */
  subjects(
    options: { projectId?: string; prefix?: string; limit?: number; cursor?: string } = {},
  ): Promise<SubjectPage> {
    const query = {
      project_id: this.project(options.projectId),
      prefix: options.prefix,
      limit: options.limit,
      cursor: options.cursor,
    };
    return this.run({ method: "GET", path: "/v1/subjects", query, replayable: true });
  }

  /** Recent context calls, newest first; `inspect` reads one whole. */
  traces(
    options: { projectId?: string; subjectId?: string; limit?: number; cursor?: string } = {},
  ): Promise<TracePage> {
    const query = {
      project_id: this.project(options.projectId),
      subject_id: options.subjectId,
      limit: options.limit,
      cursor: options.cursor,
    };
    return this.run({ method: "GET", path: "/v1/traces", query, replayable: true });
  }

  /** Start a device login (no key needed): the terminal side of `haki login`. */
  cliDeviceStart(): Promise<DeviceCode> {
    return this.run({ method: "POST", path: "/v1/cli/device/start" });
  }

  /** `pending` until a person approves; then `approved` with a new key, once. */
  cliDevicePoll(deviceCode: string): Promise<DeviceLogin> {
    return this.run({ method: "POST", path: "/v1/cli/device/poll", body: { device_code: deviceCode } });
  }

  /** Approve a waiting device login for the project (what the console's page calls). */
  approveDevice(userCode: string, options: { projectId?: string; label?: string } = {}): Promise<Record<string, unknown>> {
    const body = compact({ user_code: userCode, project_id: this.project(options.projectId), label: options.label });
    return this.run({ method: "POST", path: "/v1/cli/device/approve", body });
  }
}

function withProcessed(out: ConsolidateResult): ConsolidateResult {
  if (typeof out.processed !== "number") {
    out.processed = Object.values(out.jobs ?? {}).reduce((a, b) => a + b, 0);
  }
  return out;
}
