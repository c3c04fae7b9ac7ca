"""POST /v1/jobs/{id}/retry through the SDK: a failed job goes back to the queue, once."""

from __future__ import annotations

import httpx
import pytest

from haki.client import AsyncHakiClient, NotFoundError


@pytest.fixture
async def sdk(client: httpx.AsyncClient):
    transport = httpx.ASGITransport(app=client.app)  # type: ignore[attr-defined]
    async with AsyncHakiClient("http://haki.test", transport=transport, project_id="p1") as c:
        yield c


async def test_a_failed_job_is_retried_and_runs(sdk: AsyncHakiClient, client: httpx.AsyncClient):
    await sdk.add([{"role": "user", "content": "I live in Lyon."}], subject_id="ana")
    db = client.app.state.haki.db  # type: ignore[attr-defined]
    async with db.transaction(system=True) as conn:
        await conn.execute(
            "UPDATE jobs SET status = 'failed', attempts = 3, last_error = 'boom' "
            "WHERE project_id = 'p1'"
        )
    [failed] = (await sdk.jobs(status="failed")).jobs
    assert failed.last_error == "boom"

    retried = await sdk.retry_job(failed.id)
    assert (retried.status, retried.attempts) == ("pending", 0)
    with pytest.raises(NotFoundError):
        await sdk.retry_job(failed.id)  # no longer failed
    with pytest.raises(NotFoundError):
        await sdk.retry_job(failed.id, project_id="p2")  # another project's view: missing

    await sdk.consolidate_subject(subject_id="ana")
    [done] = (await sdk.jobs()).jobs
    assert done.status == "done"
    assert [f.value for f in (await sdk.facts(subject_id="ana", status="active")).facts]
