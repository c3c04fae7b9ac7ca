// The TypeScript client against a live `haki serve` (dev mode, no worker).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  ConflictError,
  HakiApiError,
  HakiClient,
  HakiConnectionError,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  RetryPolicy,
  render,
} from "../dist/index.js";
import { RecordingRetry, flakyFetch, serverUrl, unique } from "./helpers.mjs";

const MESSAGES = [
  { role: "user", content: "I live in Lyon and I prefer tea to coffee." },
  { role: "assistant", content: "Noted: tea it is." },
  { role: "user", content: "My sister Lena is visiting next week.", name: "Sam" },
];
const FAST = () => new RecordingRetry({ maxRetries: 3 });
const MISSING = "00000000-0000-0000-0000-000000000000";

function client(options = {}) {
  return new HakiClient({ baseUrl: serverUrl(), projectId: "ts-sdk", ...options });
}

test("add, consolidate, timeline, context, render and inspect round trip", async () => {
  const haki = client();
  const subject = unique("u1");
  assert.equal((await haki.health()).status, "ok");
  const captured = await haki.add(MESSAGES, { subjectId: subject, threadId: "t1" });
  assert.equal(captured.events.length, 3);
  assert.ok(captured.events.every((e) => e.deduplicated === false));
  const done = await haki.consolidateSubject({ subjectId: subject });
  assert.equal(done.processed, 1);
  assert.deepEqual(done.jobs, { done: 1 });

  const timeline = await haki.timeline(subject);
  assert.deepEqual(timeline.events.map((e) => e.payload), MESSAGES);
  assert.deepEqual(timeline.events.map((e) => e.actor_type), ["user", "agent", "user"]);
  assert.deepEqual(timeline.events.map((e) => e.origin_trust), ["trusted", "semi_trusted", "trusted"]);
  assert.ok(timeline.events.every((e) => e.thread_id === "t1" && e.idempotency_key.startsWith("sdk-")));
  const walked = [];
  for await (const event of haki.iterTimeline(subject, { pageSize: 2 })) walked.push(event.id);
  assert.deepEqual(walked, timeline.events.map((e) => e.id));
  assert.equal((await haki.event(walked[0])).payload.content, MESSAGES[0].content);

  const result = await haki.context(subject, "where does the user live? who is visiting?");
  assert.ok(result.trace_id && result.token_count > 0);
  const excerpts = result.packet.episodes.map((e) => e.excerpt);
  assert.ok(excerpts.some((x) => x.startsWith("user: I live in Lyon")), excerpts.join(" | "));
  const block = render(result, { subjectId: subject });
  assert.ok(block.startsWith(`<haki_memory>\nMemory about subject ${subject}.`), block);
  assert.ok(block.includes("Sam: My sister Lena is visiting next week."), block);
  assert.equal(render(result), render(result.packet));

  const trace = await haki.inspect(result.trace_id, { subjectId: subject });
  assert.equal(trace.trace_id, result.trace_id);
  assert.ok(trace.decisions.every((d) => d.kind === "fact" || d.kind === "episode"));
  const traces = await haki.traces({ subjectId: subject });
  assert.deepEqual(traces.traces.map((t) => t.trace_id), [result.trace_id]);
  const subjects = await haki.subjects({ prefix: subject });
  assert.deepEqual(subjects.subjects.map((s) => [s.subject_id, s.events]), [[subject, 3]]);
  const jobs = await haki.jobs({ status: "done" });
  assert.ok(jobs.jobs.some((j) => j.subject_id === subject));
  const stats = await haki.stats();
  assert.equal(stats.project_id, "ts-sdk");
  assert.ok(stats.recall_count >= 1);
});

test("facts: create, read, correct, status, feedback, conflicts and forget", async () => {
  const haki = client();
  const subject = unique("facts");
  const made = await haki.createFact({
    subjectId: subject,
    predicate: "home_city",
    value: "Lyon",
    validFrom: "2026-03-01T00:00:00Z",
    reason: "told at the desk",
  });
  assert.equal(made.value, "Lyon");
  assert.equal(made.status, "active");
  assert.equal(made.origin_trust, "trusted");
  assert.equal(made.valid_from.slice(0, 10), "2026-03-01");
  const read = await haki.fact(made.id);
  assert.equal(read.version, made.version);

  await assert.rejects(
    haki.correctFact(made.id, "Paris", { expectedVersion: read.version + 5 }),
    (e) => e instanceof ConflictError && e.type === "version_conflict",
  );
  const corrected = await haki.correctFact(made.id, "Villeurbanne", {
    expectedVersion: read.version,
    reason: "misheard",
  });
  assert.equal(corrected.value, "Villeurbanne");
  assert.notEqual(corrected.id, made.id);
  const active = await haki.facts({ subjectId: subject, status: "active" });
  assert.deepEqual(active.facts.map((f) => f.value), ["Villeurbanne"]);
  const all = await haki.facts({ subjectId: subject });
  assert.equal(all.facts.length, 2);

  const receipt = await haki.feedback({ rating: "incorrect", factId: corrected.id, comment: "wrong" });
  assert.ok(receipt.id);
  assert.equal(receipt.fact_status, "disputed");
  const disabled = await haki.setFactStatus(corrected.id, "disabled", { reason: "test" });
  assert.equal(disabled.status, "disabled");
  const conflicts = await haki.conflicts({ subjectId: subject });
  assert.deepEqual(conflicts.conflicts, []);
  await assert.rejects(haki.resolveConflict(MISSING, { keepFactId: MISSING }), NotFoundError);

  const forgotten = await haki.forget({ subjectId: subject, mode: "delete" });
  assert.equal(forgotten.mode, "delete");
  assert.deepEqual((await haki.facts({ subjectId: subject })).facts, []);
});

test("keys: create, list and revoke", async () => {
  const haki = client({ projectId: unique("keys") });
  const key = await haki.createKey({ label: "ts" });
  assert.ok(key.key && key.key.startsWith(key.prefix));
  const listed = await haki.listKeys();
  assert.deepEqual(listed.keys.map((k) => k.id), [key.id]);
  assert.equal(listed.keys[0].key ?? null, null); // the secret is shown once
  const revoked = await haki.revokeKey(key.id);
  assert.equal(revoked.id, key.id);
  await assert.rejects(haki.revokeKey(MISSING), (e) => e instanceof NotFoundError && e.type === "key_not_found");
});

test("errors are typed with the envelope's type, message, field and request id", async () => {
  const haki = client({ retry: FAST() });
  await assert.rejects(haki.event(MISSING), (e) => {
    assert.ok(e instanceof NotFoundError && e instanceof HakiApiError);
    assert.equal(e.status, 404);
    assert.equal(e.type, "not_found");
    assert.ok(e.requestId && e.request_id === e.requestId);
    return true;
  });
  await assert.rejects(haki.context("u1", "q", { budgetTokens: 0 }), (e) => {
    assert.ok(e instanceof InvalidRequestError);
    assert.equal(e.type, "budget_exceeded");
    assert.ok(e.message.length > 0 && !e.message.startsWith("["));
    return true;
  });
  await assert.rejects(
    haki.capture([{ kind: "note", occurred_at: "2026-01-01T00:00:00Z", payload: {} }]),
    (e) => e instanceof InvalidRequestError && e.type === "missing_scope" && e.field === "events[0].subject_id",
  );
  const down = new HakiClient({ baseUrl: "http://127.0.0.1:9", retry: FAST() });
  await assert.rejects(down.health(), HakiConnectionError);
});

test("a capture retried after a lost answer writes once, with the same keys", async () => {
  const subject = unique("u2");
  const flaky = flakyFetch({ status: 503, fail: 2, after: true });
  const haki = client({ fetch: flaky.impl, retry: FAST() });
  const result = await haki.add(MESSAGES.slice(0, 1), { subjectId: subject });
  assert.equal(flaky.seen.length, 3);
  assert.equal(flaky.seen[0], flaky.seen[2]); // same body, same idempotency keys
  assert.equal(result.events[0].deduplicated, true); // the first, unheard write is the one kept
  assert.equal((await client().timeline(subject)).events.length, 1);
});

test("Retry-After is honoured, 429 gives up after the retries, other 4xx are not retried", async () => {
  let retry = new RecordingRetry();
  let flaky = flakyFetch({ status: 429, fail: 1, retryAfter: "7" });
  assert.equal((await client({ fetch: flaky.impl, retry }).health()).status, "ok");
  assert.deepEqual(retry.waits, [7]);

  retry = new RecordingRetry();
  const date = new Date(Date.now() + 30_000).toUTCString();
  flaky = flakyFetch({ status: 503, fail: 1, retryAfter: date });
  await client({ fetch: flaky.impl, retry }).health();
  assert.ok(retry.waits[0] > 25 && retry.waits[0] <= 30, `waited ${retry.waits}`);

  retry = new RecordingRetry({ maxRetries: 2 });
  flaky = flakyFetch({ status: 429, fail: 10, retryAfter: "0" });
  await assert.rejects(client({ fetch: flaky.impl, retry }).health(), (e) => {
    assert.ok(e instanceof RateLimitError);
    assert.equal(e.type, "injected");
    return true;
  });
  assert.equal(flaky.seen.length, 3);

  flaky = flakyFetch({ status: 409, fail: 1 });
  await assert.rejects(client({ fetch: flaky.impl, retry: new RecordingRetry() }).health(), ConflictError);
  assert.equal(flaky.seen.length, 1);
});

test("RetryPolicy reads Retry-After as seconds or an HTTP date, capped", () => {
  const policy = new RetryPolicy();
  const now = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(policy.retryAfter("3", now), 3);
  assert.equal(policy.retryAfter("3600", now), 60);
  assert.equal(policy.retryAfter("Thu, 01 Jan 2026 00:00:10 GMT", now), 10);
  assert.equal(policy.retryAfter("Wed, 31 Dec 2025 00:00:10 GMT", now), 0);
  assert.equal(policy.retryAfter("soon", now), null);
  assert.equal(policy.retryAfter(null, now), null);
});

test("a capture with an explicit key replays to the same events", async () => {
  const haki = client();
  const subject = unique("u3");
  const event = { subject_id: subject, kind: "note", occurred_at: "2026-01-01T00:00:00Z", payload: { text: "hello" } };
  const first = await haki.capture([event]);
  const key = (await haki.timeline(subject)).events[0].idempotency_key;
  const replay = await haki.capture([{ ...event, idempotency_key: key }]);
  assert.deepEqual(replay.events.map((e) => e.id), first.events.map((e) => e.id));
  assert.equal(replay.events[0].deduplicated, true);
});
