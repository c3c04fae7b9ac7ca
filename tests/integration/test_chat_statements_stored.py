"""Statements typed as in a chat, end to end: capture at the speaker's offset, consolidate on the
real database, and the facts hold from the moment their words name — a clause whose speaker goes
unsaid, a job headed by its field, a name in apposition stored alone, a tie begun in French."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from said import facts_after

PROJECT = "chatstated"


async def _facts_after(client, subject: str, when: str, text: str) -> list[dict[str, Any]]:
    return await facts_after(client, PROJECT, subject, when, text)


async def test_chat_statements_become_dated_facts(client):
    # Wednesday 2027-02-03, evening in Chicago: already Thursday in UTC.
    at = "2027-02-03T21:40:00-06:00"
    facts = await _facts_after(
        client,
        "unsaid",
        at,
        "been living in Austin since 2022 and switched careers last month, "
        "I'm a product designer now",
    )
    by_predicate = {f["predicate"]: f for f in facts}
    assert by_predicate["home_city"]["value"] == "Austin"
    assert by_predicate["home_city"]["valid_from"].startswith("2022")
    assert by_predicate["occupation"]["value"] == "product designer"
    assert by_predicate["occupation"]["valid_from"].startswith("2027-01")
    assert by_predicate["occupation"]["valid_from_grain"] == "month"


async def test_a_name_in_apposition_is_the_one_fact_stored(client):
    # Sunday 00:30 in Auckland: "on saturday" is the day before, local time.
    facts = await _facts_after(
        client,
        "apposed",
        "2026-11-29T00:30:00+13:00",
        "can't sleep. on saturday i joined a book club, the Ponsonby Readers, and i love it",
    )
    clubs = [f for f in facts if f["predicate"] == "member_of"]
    assert [f["value"] for f in clubs] == ["Ponsonby Readers"], facts
    # Any instant of Saturday 28 on the speaker's clock (+13:00) is that day.
    local = datetime.fromisoformat(clubs[0]["valid_from"]).astimezone(timezone(timedelta(hours=13)))
    assert local.date().isoformat() == "2026-11-28"


async def test_a_tie_begun_in_french_names_the_partner_from_its_day(client):
    facts = await _facts_after(
        client,
        "ensemble",
        "2027-12-20T18:00:00+01:00",
        "on s'est mis ensemble il y a 3 semaines avec Karim, je suis trop contente",
    )
    [partner] = [f for f in facts if f["predicate"] == "partner"]
    assert partner["value"] == "Karim"
    assert partner["valid_from"].startswith("2027-11-29")
