"""GET /v1/subjects and GET /v1/traces through the SDK: counts, prefix search, pages."""

from __future__ import annotations

import httpx
import pytest

from haki.client import AsyncHakiClient, InvalidRequestError


@pytest.fixture
async def sdk(client: httpx.AsyncClient):
    transport = httpx.ASGITransport(app=client.app)  # type: ignore[attr-defined]
    async with AsyncHakiClient("http://haki.test", transport=transport, project_id="p1") as c:
        yield c


async def test_subjects_with_counts_prefix_and_pages(sdk: AsyncHakiClient):
    for subject in ("ana", "anna", "bob", "an_x"):
        await sdk.add([{"role": "user", "content": "I live in Lyon."}], subject_id=subject)
    await sdk.add([{"role": "user", "content": "hello"}], subject_id="other", project_id="p2")
    await sdk.consolidate_subject(subject_id="ana")
    await sdk._http.post(
        "/v1/facts",
        json={"project_id": "p1", "subject_id": "zed", "predicate": "pet", "value": "Miso"},
    )

    page = await sdk.subjects()
    assert [s.subject_id for s in page.subjects] == ["an_x", "ana", "anna", "bob", "zed"]
    ana = page.subjects[1]
    assert (ana.events, ana.active_facts, ana.open_conflicts) == (1, 1, 0)
    assert ana.last_activity is not None
    zed = page.subjects[-1]
    assert (zed.events, zed.active_facts) == (0, 1)

    # "_" is a literal in the prefix, not a LIKE wildcard.
    assert [s.subject_id for s in (await sdk.subjects(prefix="an_")).subjects] == ["an_x"]
    assert [s.subject_id for s in (await sdk.subjects(prefix="an")).subjects] == [
        "an_x",
        "ana",
        "anna",
    ]

    first = await sdk.subjects(limit=2)
    second = await sdk.subjects(limit=2, cursor=first.next_cursor)
    third = await sdk.subjects(limit=2, cursor=second.next_cursor)
    walked = [s.subject_id for p in (first, second, third) for s in p.subjects]
    assert walked == ["an_x", "ana", "anna", "bob", "zed"] and third.next_cursor is None
    with pytest.raises(InvalidRequestError):
        await sdk.subjects(cursor="not-a-cursor")


async def test_traces_newest_first_per_subject_and_paged(sdk: AsyncHakiClient):
    await sdk.add([{"role": "user", "content": "I live in Lyon."}], subject_id="ana")
    asked = [(await sdk.context("ana", f"question {i}")).trace_id for i in range(3)] + [
        (await sdk.context("bob", "other question")).trace_id
    ]

    mine = await sdk.traces(subject_id="ana")
    assert [t.trace_id for t in mine.traces] == asked[2::-1]
    assert mine.traces[0].query == "question 2" and mine.traces[0].subject_id == "ana"
    everyone = await sdk.traces()
    assert {t.trace_id for t in everyone.traces} == set(asked)

    first = await sdk.traces(subject_id="ana", limit=2)
    rest = await sdk.traces(subject_id="ana", limit=2, cursor=first.next_cursor)
    assert [t.trace_id for t in first.traces + rest.traces] == asked[2::-1]
    assert rest.next_cursor is None
    assert (await sdk.traces(project_id="p2")).traces == []
