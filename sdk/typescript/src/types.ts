/**
 * Results as the server sends them: JSON objects with snake_case fields,
 * identifiers as strings and timestamps as ISO-8601 strings. Fields a newer
 * server adds pass through untyped (`[key: string]: unknown`), so an
 * additive server change never breaks a client.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A timestamp given to the client: a `Date`, or an ISO-8601 string sent as is. */
export type Instant = Date | string;

interface Open {
  [key: string]: unknown;
}

export interface Health extends Open {
  status: string;
  database: string;
  embedder?: Record<string, unknown> | null;
}

/** One event to capture (`POST /v1/capture`); see docs/events.md. */
export interface EventIn {
  project_id?: string;
  subject_id: string;
  kind: string;
  payload: Record<string, unknown>;
  org_id?: string;
  subject_type?: string;
  actor_type?: string;
  actor_id?: string;
  agent_id?: string;
  thread_id?: string;
  run_id?: string;
  occurred_at?: Instant;
  idempotency_key?: string;
  [key: string]: unknown;
}

export interface CapturedEvent extends Open {
  id: string;
  deduplicated: boolean;
}

export interface CaptureResult extends Open {
  status: string;
  events: CapturedEvent[];
  consolidation_job_id?: string | null;
}

export interface PacketFact extends Open {
  id: string;
  predicate: string;
  value: Json;
  valid_from?: string | null;
  source_event_ids?: string[];
  confidence?: number | null;
  fact_kind?: string | null;
  volatility?: string | null;
  text?: string | null;
}

export interface PacketEpisode extends Open {
  id: string;
  event_id: string;
  occurred_at: string;
  excerpt: string;
  kind?: string | null;
  speaker?: string | null;
  text?: string | null;
}

export interface Packet extends Open {
  facts?: PacketFact[];
  episodes?: PacketEpisode[];
  warnings?: string[];
  status?: string;
  empty_reason?: string | null;
}

export interface ContextResult extends Open {
  packet: Packet;
  token_count: number;
  trace_id: string;
}

export interface Decision extends Open {
  kind: string;
  id: string;
  action: string;
  reason_code: string;
  rank?: number | null;
  score?: Record<string, number> | null;
  tokens?: number | null;
}

export interface Trace extends Open {
  trace_id: string;
  project_id: string;
  subject_id: string;
  query: string;
  packet: Packet;
  decisions: Decision[];
  token_count: number;
  purpose?: string | null;
  as_of?: string | null;
  created_at?: string | null;
}

export interface Event extends Open {
  id: string;
  project_id: string;
  subject_id: string;
  kind: string;
  occurred_at: string;
  payload: Record<string, unknown>;
  org_id?: string | null;
  subject_type?: string | null;
  actor_type?: string | null;
  actor_id?: string | null;
  agent_id?: string | null;
  thread_id?: string | null;
  run_id?: string | null;
  recorded_at?: string | null;
  idempotency_key?: string | null;
  origin_trust?: string | null;
}

export interface Timeline extends Open {
  events: Event[];
  next_cursor?: string | null;
}

export interface Fact extends Open {
  id: string;
  project_id: string;
  subject_id: string;
  predicate: string;
  value: Json;
  status: string;
  qualifiers?: Record<string, unknown>;
  confidence?: number | null;
  version?: number | null;
  valid_from?: string | null;
  valid_to?: string | null;
  recorded_from?: string | null;
  recorded_to?: string | null;
  supersedes_id?: string | null;
  source_event_ids?: string[];
  fact_kind?: string | null;
  volatility?: string | null;
  origin_trust?: string | null;
  evidence_span?: string | null;
}

/** A manual fact write (`POST /v1/facts`, `PATCH /v1/facts/{id}`): the fact in force and what happened. */
export interface FactWrite extends Open {
  fact: Fact;
  action: "insert" | "supersede" | "historical" | "unchanged" | "correct" | "status";
  superseded: string[];
}

export interface FactPage extends Open {
  facts: Fact[];
  next_cursor?: string | null;
}

export interface ConsolidateResult extends Open {
  processed: number;
  jobs: Record<string, number>;
  events?: number;
  chunks?: number;
  candidates?: number;
  rejected?: Record<string, number>;
  actions?: Record<string, number>;
}

export interface Job extends Open {
  id: string;
  kind: string;
  status: string;
  project_id: string;
  attempts: number;
  subject_id?: string | null;
  last_error?: string | null;
  result?: Record<string, unknown> | null;
  created_at?: string | null;
  finished_at?: string | null;
}

export interface JobList extends Open {
  jobs: Job[];
  counts?: Record<string, number>;
}

export interface Conflict extends Open {
  id: string;
  project_id: string;
  subject_id: string;
  kind: string;
  status: string;
  reason: string;
  fact_ids: string[];
  facts?: Fact[];
  resolution?: Record<string, unknown> | null;
  created_at?: string | null;
  resolved_at?: string | null;
}

export interface ConflictList extends Open {
  conflicts: Conflict[];
}

export interface Resolution extends Open {
  id: string;
  status: string;
  keep_fact_id: string | null;
  superseded: string[];
  dismissed?: string[];
  resolved_at?: string | null;
}

export interface ForgetReceipt extends Open {
  forget_id: string;
  mode: string;
  status: string;
  created_at?: string | null;
  facts_disabled?: number;
  facts_deleted?: number;
  events_deleted?: number;
  chunks_deleted?: number;
  traces_deleted?: number;
  conflict_sets_deleted?: number;
}

export interface FeedbackReceipt extends Open {
  id: string;
  status: string;
  fact_status?: string | null;
}

export interface ApiKey extends Open {
  id: string;
  project_id: string;
  prefix: string;
  org_id?: string | null;
  label?: string | null;
  created_at?: string | null;
  last_used_at?: string | null;
  revoked_at?: string | null;
  /** The secret: only in the creation answer, once. */
  key?: string | null;
}

export interface KeyList extends Open {
  keys: ApiKey[];
}

export interface RevokedKey extends Open {
  id: string;
  revoked_at?: string | null;
  status: string;
}

export interface DayCount extends Open {
  day: string;
  events?: number;
  context_calls?: number;
}

export interface Stats extends Open {
  project_id: string;
  active_facts: number;
  events_this_week: number;
  recall_count: number;
  context_tokens_served: number;
  recall_p50_ms?: number | null;
  recall_p99_ms?: number | null;
  injection_rate?: number | null;
  per_day?: DayCount[];
}

export interface Subject extends Open {
  subject_id: string;
  events: number;
  active_facts: number;
  open_conflicts: number;
  last_activity?: string | null;
}

export interface SubjectPage extends Open {
  subjects: Subject[];
  next_cursor?: string | null;
}

export interface TraceSummary extends Open {
  trace_id: string;
  subject_id: string;
  query: string;
  token_count: number;
  facts_served: number;
  duration_ms: number;
  purpose?: string | null;
  as_of?: string | null;
  created_at?: string | null;
}

export interface TracePage extends Open {
  traces: TraceSummary[];
  next_cursor?: string | null;
}

export interface DeviceCode extends Open {
  device_code: string;
  user_code: string;
  verification_uri: string;
  expires_in: number;
  interval: number;
  verification_uri_complete?: string | null;
}

export interface DeviceLogin extends Open {
  status: string;
  api_key?: string | null;
  org_id?: string | null;
  project_id?: string | null;
}

/** An OpenAI-style chat message, captured as one event by `add()`. */
export interface Message {
  role: string;
  content?: unknown;
  name?: string;
  [key: string]: unknown;
}
