"""One context call's CPU with and without ``one_trip`` transactions, in one process.

``Database.transaction(one_trip=True)`` (``storage/begin.py``) sends ``BEGIN``
with the transaction's settings in one message. Over HTTP on a shared
machine its fraction of a millisecond hides in the noise of a same-run pair,
so this script measures it where the noise is smallest: one app, built in
this process on a database seeded by ``context_latency.py --data-dir DIR``
(``corpus`` or ``locomo``), answers the workload's questions through
``assemble`` in alternating blocks, the option off then on (the order
swapped every block), with the query embeddings cached beforehand. Printed
per side: the server's CPU per call (``time.process_time``), PostgreSQL's
(``/proc``, every backend), wall p50 / p95, and how many packets came out
byte for byte the same on both sides.

    .venv/bin/python bench/context_latency.py --workload corpus --data-dir /tmp/ctx
    .venv/bin/python bench/context_one_trip.py /tmp/ctx/corpus --queries 300
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from _context_ab import alternate, seeded_main


def two_trips(transaction: Callable[..., Any]) -> Callable[..., Any]:
    def opened(*args: Any, **kwargs: Any) -> Any:
        kwargs.pop("one_trip", None)
        return transaction(*args, **kwargs)

    return opened


async def compare(url: str, asks: list[tuple[str, str]], postmaster: int | None) -> None:
    one_trip: dict[str, Callable[..., Any]] = {}

    def switch(state: Any, on: bool) -> None:
        one_trip.setdefault("transaction", state.db.transaction)
        kept = one_trip["transaction"]
        state.db.transaction = kept if on else two_trips(kept)

    await alternate(url, asks, postmaster, switch, "one_trip")


def main() -> None:
    seeded_main(__doc__, "haki-one-trip-", compare)


if __name__ == "__main__":
    main()
