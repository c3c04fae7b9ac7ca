"""One context call's CPU with the trace row in either form, in one process.

Before migration 0175 a trace stored its packet and its ~150 decisions as
``jsonb`` (PostgreSQL parsed ~60 kB of JSON and compressed it with pglz on
every call); since, the packet is stored as the ``json`` text it was served
as and the decisions packed as fixed-width columns (``context.trace_codec``).
Both forms can still be written, so one app built on a database seeded by
``context_latency.py --data-dir DIR`` (``corpus`` or ``locomo``) answers the
workload's questions in alternating blocks, writing the old form then the
new (``_context_ab.alternate``: the server's and PostgreSQL's CPU per call,
trace writes included, wall p50 / p95, packets compared).

    .venv/bin/python bench/context_latency.py --workload corpus --data-dir /tmp/ctx
    .venv/bin/python bench/context_trace_form.py /tmp/ctx/corpus --queries 300
"""

from __future__ import annotations

from typing import Any

import orjson

from _context_ab import alternate, seeded_main
from haki.context import trace, trace_writer
from haki.context.trace import JSON_OPTIONS, TraceRecord, prebuilt_json, trace_params

JSONB_INSERT = trace.INSERT_TRACE.replace(
    "packet_served, decision_columns", "packet, decisions"
).replace("%(decisions)b", "%(decisions)s")
COMPACT_INSERT = trace.INSERT_TRACE


def jsonb_params(t: TraceRecord, packet: bytes) -> dict[str, Any]:
    """The parameters of the writer before 0175: both documents as ``jsonb``."""
    decisions = orjson.dumps([d.to_json() for d in t.decisions], option=JSON_OPTIONS)
    return trace_params(t, packet) | {
        "packet": prebuilt_json(packet),
        "decisions": prebuilt_json(decisions),
    }


async def compare(url: str, asks: list[tuple[str, str]], postmaster: int | None) -> None:
    def switch(_: Any, on: bool) -> None:
        trace.INSERT_TRACE = COMPACT_INSERT if on else JSONB_INSERT
        trace_writer.trace_params = trace_params if on else jsonb_params  # type: ignore[attr-defined]

    await alternate(url, asks, postmaster, switch, "compact_trace")


def main() -> None:
    seeded_main(__doc__, "haki-trace-form-", compare)


if __name__ == "__main__":
    main()
