"""The Prometheus series of a serving process, and their exposition (``GET /metrics``).

Domain and storage code record into the series defined here; the API route
renders them. Under ``haki serve --workers N`` every process writes its
values to files in ``PROMETHEUS_MULTIPROC_DIR`` (a directory the parent makes
and removes), and a scrape, answered by whichever process the kernel picks,
adds up every process's files: counters and histograms are sums, the pool
gauges sum over live processes. Values a scrape computes from the database
(the job queue) are computed by the process that answers it.

``prometheus_client`` chooses between in-memory and file-backed values when it
is first imported, from that variable: the command line does not import this
module, and ``serve`` sets the variable before anything does (the parent of
``--workers N`` counts embedded restarts into the shared files too).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = CONTENT_TYPE_LATEST

# The registry of this module's series (not the library's global one, which
# other libraries may fill): a single process scrapes it as it is.
REGISTRY = CollectorRegistry(auto_describe=True)

# Request latencies, from sub-millisecond reads to a long consolidation.
_SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
# Context stages: most take a fraction of a millisecond to a few milliseconds.
_STAGE_SECONDS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
# A consolidation job: tens of milliseconds to minutes (a large batch, a slow model).
_JOB_SECONDS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)

HTTP_REQUESTS = Counter(
    "haki_http_requests",
    "HTTP requests answered, by method, route template and status.",
    ("method", "route", "status"),
    registry=REGISTRY,
)
HTTP_DURATION = Histogram(
    "haki_http_request_duration_seconds",
    "Time to answer an HTTP request, by method and route template.",
    ("method", "route"),
    buckets=_SECONDS,
    registry=REGISTRY,
)
CONTEXT_DURATION = Histogram(
    "haki_context_duration_seconds",
    "Time to assemble one context packet (embedding, retrieval, packing).",
    buckets=_SECONDS,
    registry=REGISTRY,
)
CONTEXT_STAGE_DURATION = Histogram(
    "haki_context_stage_duration_seconds",
    "Time of each context stage (the Server-Timing names; embed, facts and episodes overlap).",
    ("stage",),
    buckets=_STAGE_SECONDS,
    registry=REGISTRY,
)
CONTEXT_TOKENS = Counter(
    "haki_context_tokens_served",
    "Tokens of facts and episodes served in context packets.",
    registry=REGISTRY,
)
CONTEXT_PACKETS = Counter(
    "haki_context_packets",
    "Context packets served, by what they carried: facts (an injection), episodes only, or nothing.",
    ("served",),
    registry=REGISTRY,
)
CAPTURE_EVENTS = Counter(
    "haki_capture_events",
    "Events captured, new or deduplicated (a replayed idempotency key).",
    ("result",),
    registry=REGISTRY,
)
JOBS = Counter(
    "haki_jobs",
    "Consolidation jobs run by a worker, by outcome (done, retry, failed, lost).",
    ("outcome",),
    registry=REGISTRY,
)
JOB_DURATION = Histogram(
    "haki_job_duration_seconds",
    "Time a worker spent on one consolidation job, by outcome.",
    ("outcome",),
    buckets=_JOB_SECONDS,
    registry=REGISTRY,
)
DB_POOL_IN_USE = Gauge(
    "haki_db_pool_connections_in_use",
    "Pooled database connections lent out, summed over live processes.",
    multiprocess_mode="livesum",
    registry=REGISTRY,
)
DB_POOL_WAITING = Gauge(
    "haki_db_pool_requests_waiting",
    "Units of work waiting for a pooled connection, summed over live processes.",
    multiprocess_mode="livesum",
    registry=REGISTRY,
)
EMBEDDED_RESTARTS = Counter(
    "haki_embedded_restarts",
    "Restarts of the embedded PostgreSQL after its postmaster died.",
    registry=REGISTRY,
)

# Every known label value starts at zero, so that a series exists (and a rate
# over it is 0, not absent) before its first event.
_SERVED = ("facts", "episodes", "nothing")
for _result in ("new", "deduplicated"):
    CAPTURE_EVENTS.labels(_result)
for _outcome in ("done", "retry", "failed", "lost"):
    JOBS.labels(_outcome)
    JOB_DURATION.labels(_outcome)

# Context timings that are stages; the rest of a trace's timings are row counts.
_STAGE = re.compile(r"^(?P<stage>[a-z_]+)_ms$")


# The labelled children each call records into, found once: ``labels()`` takes
# a lock and builds a key on every call, several times a context call.
_REQUEST_CHILDREN: dict[tuple[str, str, int], tuple[Any, Any]] = {}
_STAGE_CHILDREN: dict[str, Any] = {}  # a timing's name → its stage's child, or None
_PACKET_CHILDREN = {served: CONTEXT_PACKETS.labels(served) for served in _SERVED}


# A client may send any token as a method: the others share one label value,
# so no caller can grow the number of series (routes are templates already).
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    if method not in METHODS:
        method = "other"
    key = (method, route, status)
    children = _REQUEST_CHILDREN.get(key)
    if children is None:
        children = (
            HTTP_REQUESTS.labels(method, route, str(status)),
            HTTP_DURATION.labels(method, route),
        )
        _REQUEST_CHILDREN[key] = children
    children[0].inc()
    children[1].observe(seconds)


def _stage_child(name: str) -> Any:
    if name not in _STAGE_CHILDREN:
        match = _STAGE.match(name)
        _STAGE_CHILDREN[name] = (
            CONTEXT_STAGE_DURATION.labels(match["stage"]) if match is not None else None
        )
    return _STAGE_CHILDREN[name]


def observe_context(
    timings: Mapping[str, float], total_ms: float, tokens: int, *, facts: int, episodes: int
) -> None:
    """One assembled packet: its total and stage times (milliseconds), tokens and contents."""
    CONTEXT_DURATION.observe(total_ms / 1000)
    for name, ms in timings.items():
        child = _stage_child(name)
        if child is not None:
            child.observe(ms / 1000)
    CONTEXT_TOKENS.inc(tokens)
    _PACKET_CHILDREN["facts" if facts else "episodes" if episodes else "nothing"].inc()


def observe_capture(new: int, deduplicated: int) -> None:
    if new:
        CAPTURE_EVENTS.labels("new").inc(new)
    if deduplicated:
        CAPTURE_EVENTS.labels("deduplicated").inc(deduplicated)


def count_embedded_restart() -> None:
    EMBEDDED_RESTARTS.inc()


def observe_job(outcome: str, seconds: float) -> None:
    JOBS.labels(outcome).inc()
    JOB_DURATION.labels(outcome).observe(seconds)


@dataclass(frozen=True, slots=True)
class QueueFigures:
    """The job queue as one query saw it at scrape time."""

    pending: int
    running: int
    oldest_pending_s: float  # how long the longest-waiting runnable job has waited; 0 if none


def queue_families(queue: QueueFigures) -> list[Metric]:
    depth = GaugeMetricFamily(
        "haki_jobs_queue_depth", "Jobs waiting or running, by status.", labels=("status",)
    )
    depth.add_metric(("pending",), queue.pending)
    depth.add_metric(("running",), queue.running)
    oldest = GaugeMetricFamily(
        "haki_jobs_oldest_pending_age_seconds",
        "How long the oldest runnable pending job has waited (0 when none).",
        value=queue.oldest_pending_s,
    )
    return [depth, oldest]


class _Families:
    """A collector that yields families computed before the scrape."""

    def __init__(self, families: Iterable[Metric]) -> None:
        self.families = list(families)

    def collect(self) -> Iterable[Metric]:
        return self.families


class _Own:
    """This process's registry, as a collector of a scrape's registry."""

    def collect(self) -> Iterable[Metric]:
        return REGISTRY.collect()


def multiprocess_dir() -> str | None:
    """The directory shared by the processes of ``serve --workers N``, when there is one."""
    return os.environ.get(MULTIPROC_ENV) or None


def render(extra: Iterable[Metric] = ()) -> bytes:
    """The text exposition of every series, plus ``extra`` families computed for this scrape."""
    scrape = CollectorRegistry(auto_describe=False)
    path = multiprocess_dir()
    if path is not None:
        _forget_dead_processes(path)
        MultiProcessCollector(scrape, path=path)  # type: ignore[no-untyped-call]
    else:
        scrape.register(_Own())
    scrape.register(_Families(extra))
    return generate_latest(scrape)


_LIVE_FILE = re.compile(r"^gauge_live\w+_(?P<pid>\d+)\.db$")


def _forget_dead_processes(path: str) -> None:
    """Drop the live gauges of processes that died (a killed worker the
    supervisor replaced): their pool gauges would otherwise count forever."""
    import psutil

    dead = set()
    for name in os.listdir(path):
        match = _LIVE_FILE.match(name)
        if match and not psutil.pid_exists(int(match["pid"])):
            dead.add(int(match["pid"]))
    for pid in sorted(dead):
        mark_process_dead(pid, path)  # type: ignore[no-untyped-call]
