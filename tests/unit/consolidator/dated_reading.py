"""What the rules read in a text said at ``at``: each fact with the local day it holds from."""

from __future__ import annotations

from datetime import date, datetime

from haki.providers.extraction.rules import dated, extract_payload


def facts_since(text: str, at: datetime) -> dict[tuple[str, str], date | None]:
    out = {}
    for c in dated([c for c in extract_payload({"text": text}) if not c.retract], at):
        local = c.valid_from.astimezone(at.tzinfo).date() if c.valid_from else None
        out[(c.predicate, str(c.value))] = local
    return out
