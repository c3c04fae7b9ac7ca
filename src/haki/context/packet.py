"""The ContextPacket built from what was packed (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from .render import episode_entry, fact_entry
from .types import NO_RELEVANT_MEMORY, UNKNOWN_SUBJECT, Packet, Rendered


def warnings(blocked: int, expired: int) -> list[str]:
    out = []
    if blocked:
        out.append(f"open_conflict: {blocked} fact(s) hidden pending conflict resolution")
    if expired:
        out.append(f"volatility_expired: {expired} fact(s) hidden past their volatility horizon")
    return out


def build_packet(
    facts: Sequence[Rendered],
    episodes: Sequence[Rendered],
    *,
    blocked: int,
    expired: int,
    gated: int,
    unknown_subject: bool = False,
) -> Packet:
    """``gated`` counts rows the recall gate excluded; it only matters when nothing is served.

    An empty packet caused by the gate is an honest "nothing relevant enough",
    not a failure: the status stays ``ok`` and no warning is added, since a
    warning would flip the status and clients render an empty ok packet as
    no memory block at all.
    """
    notes = warnings(blocked, expired)
    empty = not facts and not episodes
    reason = None
    if empty and unknown_subject:
        reason = UNKNOWN_SUBJECT
    elif empty and gated:
        reason = NO_RELEVANT_MEMORY
    return Packet(
        facts=tuple(fact_entry(f) for f in facts),
        episodes=tuple(episode_entry(e) for e in episodes),
        warnings=tuple(notes),
        status="degraded" if notes else "ok",
        empty_reason=reason,
    )
