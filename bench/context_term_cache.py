"""One context call's CPU with and without the kept term estimates, in one process.

``context_episode_lexical`` (migration 0174) takes the term estimates the
server works out from what an earlier call returned (``context.term_estimates``)
while its statistics keep their token, instead of reading the statistics and
matching every term against the scope's words again. As ``context_one_trip.py`` does
for its option, this script measures the difference where the noise is
smallest: one app, built in this process on a database seeded by
``context_latency.py --data-dir DIR`` (``corpus`` or ``locomo``), answers the
workload's questions in alternating blocks with the cache on, then off (no
estimates handed to the leg: it computes them all, as before 0174; the order
swapped every block), query embeddings warmed beforehand.
Printed per side: the server's CPU per call, PostgreSQL's (``/proc``), wall
p50 / p95, and how many packets came out byte for byte the same.

    .venv/bin/python bench/context_latency.py --workload corpus --data-dir /tmp/ctx
    .venv/bin/python bench/context_term_cache.py /tmp/ctx/corpus --queries 300
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from _context_ab import alternate, seeded_main
from haki.context.term_estimates import ESTIMATES, NOTHING_KNOWN


async def compare(url: str, asks: list[tuple[str, str]], postmaster: int | None) -> None:
    known = ESTIMATES.known

    def nothing_known(project_id: str, subject_id: str, terms: Sequence[str]) -> dict[str, Any]:
        return NOTHING_KNOWN

    def switch(state: Any, on: bool) -> None:
        ESTIMATES.known = known if on else nothing_known  # type: ignore[method-assign]

    await alternate(url, asks, postmaster, switch, "estimates kept")


def main() -> None:
    seeded_main(__doc__, "haki-term-cache-", compare)


if __name__ == "__main__":
    main()
