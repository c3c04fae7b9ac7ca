"""``HakiClient``: the synchronous client (httpx)."""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, TypeVar

import httpx

from ._calls import Call, Calls, message_events
from ._http import (
    RetryPolicy,
    connection_error,
    decode,
    headers,
    resolve_key,
    resolve_url,
    sent_nothing,
)
from .types import (
    ApiKey,
    CaptureResult,
    ConflictList,
    ConsolidateResult,
    ContextResult,
    DeviceCode,
    DeviceLogin,
    Event,
    Fact,
    FactPage,
    FeedbackReceipt,
    ForgetReceipt,
    Health,
    Job,
    JobList,
    KeyList,
    Resolution,
    RevokedKey,
    Stats,
    SubjectPage,
    Timeline,
    Trace,
    TracePage,
)

T = TypeVar("T")


class HakiClient:
    """Synchronous client of the Haki HTTP API.

    ``base_url`` and ``api_key`` default to ``HAKI_URL`` and ``HAKI_API_KEY``;
    ``project_id`` is used by every call that is not given one. 429 and 503
    answers are retried (honouring ``Retry-After``) up to ``max_retries``
    times. ``transport`` is injectable for tests.
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 10.0,
        transport: httpx.BaseTransport | None = None,
        *,
        project_id: str | None = None,
        max_retries: int = 3,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.base_url = resolve_url(base_url)
        self.retry = retry or RetryPolicy(max_retries=max_retries)
        self._calls = Calls(project_id)
        self._http = httpx.Client(
            base_url=self.base_url,
            headers=headers(resolve_key(api_key)),
            timeout=timeout,
            transport=transport,
        )

    @property
    def project_id(self) -> str | None:
        return self._calls.project_id

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> HakiClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _run(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            try:
                response = self._http.request(
                    call.method, call.path, params=call.params, json=call.body
                )
            except httpx.HTTPError as exc:
                wait = self.retry.delay(attempt, None)
                if wait is None or not (call.replayable or sent_nothing(exc)):
                    raise connection_error(self.base_url, exc) from exc
            else:
                wait = None if response.is_success else self.retry.delay(attempt, response)
                if wait is None:
                    return call.read(decode(response))
            time.sleep(wait)
            attempt += 1

    # -- the calls of the original gethaki client, same names and arguments --

    def health(self) -> Health:
        return self._run(self._calls.health())

    def capture(
        self, events: Sequence[Mapping[str, Any]], idempotency_key: str | None = None
    ) -> CaptureResult:
        """Write events; each one without an ``idempotency_key`` gets one, so retries never duplicate."""
        return self._run(self._calls.capture(events, idempotency_key))

    def context(
        self,
        subject_id: str,
        query: str,
        project_id: str | None = None,
        *,
        purpose: str | None = None,
        budget_tokens: int | None = None,
        as_of: datetime | None = None,
    ) -> ContextResult:
        """The context packet for ``query``; ``render(result.packet)`` makes the prompt block."""
        return self._run(
            self._calls.context(subject_id, query, project_id, purpose, budget_tokens, as_of)
        )

    def inspect(self, trace_id: str, *, project_id: str | None = None, subject_id: str) -> Trace:
        return self._run(self._calls.inspect(trace_id, project_id, subject_id))

    def timeline(
        self,
        subject_id: str,
        project_id: str | None = None,
        *,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Timeline:
        """One page of the subject's events; ``iter_timeline`` walks every page."""
        return self._run(self._calls.timeline(subject_id, project_id, limit, cursor))

    def consolidate(
        self, *, project_id: str | None = None, max_jobs: int | None = None
    ) -> ConsolidateResult:
        """Run pending jobs now (admin key or dev mode); prefer ``consolidate_subject``."""
        return self._run(self._calls.consolidate(project_id, max_jobs))

    def consolidate_subject(
        self, *, project_id: str | None = None, subject_id: str
    ) -> ConsolidateResult:
        return self._run(self._calls.consolidate_subject(project_id, subject_id))

    def facts(
        self,
        *,
        project_id: str | None = None,
        subject_id: str,
        status: str | None = None,
        as_of: datetime | None = None,
        known_at: datetime | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> FactPage:
        """Facts in every status unless ``status`` is given; ``as_of``/``known_at`` travel in time."""
        return self._run(
            self._calls.facts(project_id, subject_id, status, as_of, known_at, limit, cursor)
        )

    def forget(
        self,
        *,
        project_id: str | None = None,
        mode: str = "disable",
        subject_id: str | None = None,
        fact_id: str | None = None,
    ) -> ForgetReceipt:
        return self._run(self._calls.forget(project_id, mode, subject_id, fact_id))

    def feedback(
        self,
        *,
        project_id: str | None = None,
        rating: str,
        trace_id: str | None = None,
        fact_id: str | None = None,
        comment: str | None = None,
        subject_id: str | None = None,
    ) -> FeedbackReceipt:
        return self._run(
            self._calls.feedback(project_id, rating, trace_id, fact_id, comment, subject_id)
        )

    def resolve_conflict(
        self, conflict_id: str, *, project_id: str | None = None, keep_fact_id: str
    ) -> Resolution:
        return self._run(self._calls.resolve_conflict(conflict_id, project_id, keep_fact_id))

    def create_key(
        self, *, project_id: str | None = None, org_id: str | None = None, label: str | None = None
    ) -> ApiKey:
        """A new key for the project; ``result.key`` is the secret, shown this once."""
        return self._run(self._calls.create_key(project_id, org_id, label))

    def list_keys(self, project_id: str | None = None) -> KeyList:
        return self._run(self._calls.list_keys(project_id))

    def revoke_key(self, key_id: str) -> RevokedKey:
        return self._run(self._calls.revoke_key(key_id))

    # -- what this server adds --

    def add(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        subject_id: str,
        project_id: str | None = None,
        thread_id: str | None = None,
        occurred_at: datetime | None = None,
        org_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        kind: str = "conversation.message",
    ) -> CaptureResult:
        """Capture OpenAI-style ``[{"role", "content", "name"?}]`` messages, one event each."""
        events = message_events(
            messages,
            project_id=self._calls._project(project_id),
            subject_id=subject_id,
            thread_id=thread_id,
            occurred_at=occurred_at,
            org_id=org_id,
            agent_id=agent_id,
            run_id=run_id,
            kind=kind,
        )
        return self.capture(events)

    def iter_timeline(
        self, subject_id: str, project_id: str | None = None, *, page_size: int = 500
    ) -> Iterator[Event]:
        """Every event of the subject, oldest first, page after page."""
        cursor: str | None = None
        while True:
            page = self.timeline(subject_id, project_id, limit=page_size, cursor=cursor)
            yield from page.events
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def event(self, event_id: str, *, project_id: str | None = None) -> Event:
        return self._run(self._calls.event(event_id, project_id))

    def fact(self, fact_id: str, *, project_id: str | None = None) -> Fact:
        return self._run(self._calls.fact(fact_id, project_id))

    def set_fact_status(
        self,
        fact_id: str,
        status: str,
        *,
        project_id: str | None = None,
        expected_version: int | None = None,
        reason: str | None = None,
    ) -> Fact:
        return self._run(
            self._calls.set_fact_status(fact_id, status, project_id, expected_version, reason)
        )

    def conflicts(
        self,
        *,
        project_id: str | None = None,
        subject_id: str | None = None,
        status: str | None = "open",
        limit: int | None = None,
    ) -> ConflictList:
        return self._run(self._calls.conflicts(project_id, subject_id, status, limit))

    def jobs(
        self, *, project_id: str | None = None, status: str | None = None, limit: int | None = None
    ) -> JobList:
        return self._run(self._calls.jobs(project_id, status, limit))

    def stats(self, *, project_id: str | None = None) -> Stats:
        return self._run(self._calls.stats(project_id))

    def subjects(
        self,
        *,
        project_id: str | None = None,
        prefix: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> SubjectPage:
        """One page of the project's subjects (``subject_id`` order) with their counts."""
        return self._run(self._calls.subjects(project_id, prefix, limit, cursor))

    def traces(
        self,
        *,
        project_id: str | None = None,
        subject_id: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> TracePage:
        """Recent context calls, newest first; ``inspect`` reads one whole."""
        return self._run(self._calls.traces(project_id, subject_id, limit, cursor))

    def create_fact(
        self,
        subject_id: str,
        predicate: str,
        value: Any,
        *,
        project_id: str | None = None,
        qualifiers: dict[str, Any] | None = None,
        fact_kind: str | None = None,
        volatility: str | None = None,
        confidence: float | None = None,
        valid_from: datetime | None = None,
        reason: str | None = None,
    ) -> Fact:
        """Assert a fact as a person would (``POST /v1/facts``): the caller is its trusted source."""
        options = {
            "qualifiers": qualifiers,
            "fact_kind": fact_kind,
            "volatility": volatility,
            "confidence": confidence,
            "valid_from": valid_from,
            "reason": reason,
        }
        return self._run(self._calls.create_fact(subject_id, predicate, value, project_id, options))

    def correct_fact(
        self,
        fact_id: str,
        value: Any,
        *,
        project_id: str | None = None,
        expected_version: int | None = None,
        reason: str | None = None,
    ) -> Fact:
        """A new version of the fact with ``value``; the old one is superseded."""
        return self._run(
            self._calls.correct_fact(fact_id, value, project_id, expected_version, reason)
        )

    def dismiss_conflict(
        self, conflict_id: str, *, project_id: str | None = None, reason: str | None = None
    ) -> Resolution:
        """Close the set by disabling its candidate members (e.g. a quarantined one)."""
        return self._run(self._calls.dismiss_conflict(conflict_id, project_id, reason))

    def cli_device_start(self) -> DeviceCode:
        """Start a device login (no key needed): the terminal side of ``haki login``."""
        return self._run(self._calls.cli_device_start())

    def cli_device_poll(self, device_code: str) -> DeviceLogin:
        """``pending`` until a person approves; then ``approved`` with a new key, once."""
        return self._run(self._calls.cli_device_poll(device_code))

    def approve_device(
        self, user_code: str, *, project_id: str | None = None, label: str | None = None
    ) -> dict[str, Any]:
        """Approve a waiting device login for the project (what the console's page calls)."""
        return self._run(self._calls.approve_device(user_code, project_id, label))

    def retry_job(self, job_id: str, *, project_id: str | None = None) -> Job:
        """Put a failed consolidation job back in the queue."""
        return self._run(self._calls.retry_job(job_id, project_id))
