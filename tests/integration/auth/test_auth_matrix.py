"""Every /v1 endpoint, three hostile callers, and project B's rows untouched.

The endpoint list comes from the live app's route table; ``REQUESTS`` holds
example requests per (method, path). A /v1 route without an entry fails the
test, so a route added later cannot escape the matrix. Each example names
B's real ids (``{b_fact}``, ``{B}``...), substituted at run time.

Callers: (a) no key, (b) a revoked key, (c) project A's key on B's data.
(a) and (b) must be 401; (c) must be 403 when the request names B, and 404
exactly like a missing object when it names A but carries an id of B's.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

import psycopg
from auth_helpers import ADMIN, bearer
from fastapi import routing

UNAUTHORIZED = {
    "error": {"type": "unauthorized", "message": "missing or invalid API key", "field": None}
}

B, S = "proj-b", "subj-b"


@dataclass(frozen=True)
class Example:
    path: str  # concrete path, placeholders allowed
    params: dict[str, Any] | None = None
    json: Any = None
    # What A's key gets: 403 when B is named, 404 for B's ids under A's name.
    expect: int = 403
    # 404 cases must answer exactly like the same request with a fresh, missing id.
    same_as_missing: bool = field(default=False)


def _event(project: str) -> dict[str, Any]:
    return {
        "project_id": project,
        "subject_id": S,
        "kind": "conversation.message",
        "occurred_at": "2026-01-05T10:00:00Z",
        "payload": {"text": "I moved to Nantes."},
    }


REQUESTS: dict[tuple[str, str], list[Example]] = {
    ("POST", "/v1/keys"): [Example("/v1/keys", json={"project_id": B, "label": "stolen"})],
    ("GET", "/v1/keys"): [Example("/v1/keys", params={"project_id": B})],
    ("DELETE", "/v1/keys/{key_id}"): [
        Example("/v1/keys/{b_key}", expect=404, same_as_missing=True)
    ],
    ("POST", "/v1/capture"): [
        Example("/v1/capture", json={"events": [_event(B)]}),
        Example("/v1/capture", json={"events": [_event("proj-a"), _event(B)]}),
    ],
    ("GET", "/v1/timeline"): [Example("/v1/timeline", params={"project_id": B, "subject_id": S})],
    ("GET", "/v1/events/{event_id}"): [
        Example("/v1/events/{b_event}", params={"project_id": B}),
        Example(
            "/v1/events/{b_event}",
            params={"project_id": "proj-a"},
            expect=404,
            same_as_missing=True,
        ),
    ],
    ("GET", "/v1/facts"): [Example("/v1/facts", params={"project_id": B, "subject_id": S})],
    ("GET", "/v1/facts/{fact_id}"): [
        Example("/v1/facts/{b_fact}", params={"project_id": B}),
        Example(
            "/v1/facts/{b_fact}", params={"project_id": "proj-a"}, expect=404, same_as_missing=True
        ),
    ],
    ("POST", "/v1/facts/{fact_id}/status"): [
        Example("/v1/facts/{b_fact}/status", json={"project_id": B, "status": "deleted"}),
        Example(
            "/v1/facts/{b_fact}/status",
            json={"project_id": "proj-a", "status": "deleted"},
            expect=404,
            same_as_missing=True,
        ),
    ],
    ("POST", "/v1/facts"): [
        Example(
            "/v1/facts",
            json={"project_id": B, "subject_id": S, "predicate": "home_city", "value": "Oslo"},
        )
    ],
    ("PATCH", "/v1/facts/{fact_id}"): [
        Example("/v1/facts/{b_fact}", json={"project_id": B, "value": "Oslo"}),
        Example(
            "/v1/facts/{b_fact}",
            json={"project_id": "proj-a", "value": "Oslo"},
            expect=404,
            same_as_missing=True,
        ),
        Example(
            "/v1/facts/{b_fact}",
            json={"project_id": "proj-a", "status": "superseded"},
            expect=404,
            same_as_missing=True,
        ),
    ],
    ("POST", "/v1/forget"): [
        Example("/v1/forget", json={"project_id": B, "subject_id": S, "mode": "delete"}),
        Example("/v1/forget", json={"project_id": B, "fact_id": "{b_fact}", "mode": "delete"}),
        Example(
            "/v1/forget",
            json={"project_id": "proj-a", "fact_id": "{b_fact}", "mode": "delete"},
            expect=404,
            same_as_missing=True,
        ),
    ],
    ("GET", "/v1/conflicts"): [Example("/v1/conflicts", params={"project_id": B})],
    ("POST", "/v1/conflicts/{conflict_id}/resolve"): [
        Example(
            "/v1/conflicts/{b_conflict}/resolve", json={"project_id": B, "keep_fact_id": "{b_fact}"}
        ),
        Example(
            "/v1/conflicts/{b_conflict}/resolve",
            json={"project_id": "proj-a", "keep_fact_id": "{b_fact}"},
            expect=404,
            same_as_missing=True,
        ),
    ],
    ("POST", "/v1/consolidate"): [
        Example("/v1/consolidate", json={"project_id": B}),
        Example("/v1/consolidate", json={}),
    ],
    ("POST", "/v1/consolidate/subject"): [
        Example("/v1/consolidate/subject", params={"project_id": B, "subject_id": S}),
    ],
    ("GET", "/v1/jobs"): [Example("/v1/jobs", params={"project_id": B})],
    ("POST", "/v1/jobs/{job_id}/retry"): [
        Example("/v1/jobs/{b_job}/retry", json={"project_id": B}),
        Example(
            "/v1/jobs/{b_job}/retry",
            json={"project_id": "proj-a"},
            expect=404,
            same_as_missing=True,
        ),
    ],
    ("POST", "/v1/context"): [
        Example(
            "/v1/context",
            json={"project_id": B, "subject_id": S, "query": "where does the user live?"},
        ),
    ],
    ("GET", "/v1/inspect/{trace_id}"): [
        Example("/v1/inspect/{b_trace}", params={"project_id": B, "subject_id": S}),
        Example(
            "/v1/inspect/{b_trace}",
            params={"project_id": "proj-a", "subject_id": S},
            expect=404,
            same_as_missing=True,
        ),
    ],
    ("GET", "/v1/stats/overview"): [Example("/v1/stats/overview", params={"project_id": B})],
    ("GET", "/v1/subjects"): [Example("/v1/subjects", params={"project_id": B})],
    ("GET", "/v1/retention"): [Example("/v1/retention", params={"project_id": B})],
    ("PUT", "/v1/retention"): [
        Example("/v1/retention", json={"project_id": B, "events_days": 1, "traces_days": 1})
    ],
    ("GET", "/v1/subjects/{subject_id}/export"): [
        Example(f"/v1/subjects/{S}/export", params={"project_id": B})
    ],
    ("POST", "/v1/cli/device/approve"): [
        Example("/v1/cli/device/approve", json={"project_id": B, "user_code": "BCDF-GHJK"})
    ],
    ("GET", "/v1/traces"): [
        Example("/v1/traces", params={"project_id": B}),
        Example("/v1/traces", params={"project_id": B, "subject_id": S}),
    ],
    ("POST", "/v1/feedback"): [
        Example(
            "/v1/feedback", json={"project_id": B, "trace_id": "{b_trace}", "rating": "irrelevant"}
        ),
        Example(
            "/v1/feedback", json={"project_id": B, "fact_id": "{b_fact}", "rating": "incorrect"}
        ),
        Example(
            "/v1/feedback",
            json={"project_id": "proj-a", "fact_id": "{b_fact}", "rating": "incorrect"},
            expect=404,
            same_as_missing=True,
        ),
    ],
}


# A terminal's device login runs before it holds a key; these answer without
# one and touch no tenant's rows (tests/integration/console, device login).
PUBLIC = {("POST", "/v1/cli/device/start"), ("POST", "/v1/cli/device/poll")}


def v1_operations(app) -> set[tuple[str, str]]:
    """(method, path template) of every /v1 route, however routers are nested."""
    found = set()
    for ctx in routing.iter_route_contexts(app.routes):
        path = ctx.path or ""
        if path == "/v1" or path.startswith("/v1/"):
            found |= {(m, path) for m in (ctx.methods or ()) if m != "HEAD"}
    # The OpenAPI schema is a second, independent listing of the same routes.
    for path, ops in app.openapi()["paths"].items():
        if path.startswith("/v1/"):
            found |= {(m.upper(), path) for m in ops}
    return found


def _fill(value: Any, ids: dict[str, str]) -> Any:
    if isinstance(value, str):
        return value.format(**ids) if "{" in value else value
    if isinstance(value, dict):
        return {k: _fill(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, ids) for v in value]
    return value


async def _send(client, method: str, ex: Example, ids: dict[str, str], headers: dict[str, str]):
    return await client.request(
        method,
        _fill(ex.path, ids),
        params=_fill(ex.params, ids),
        json=_fill(ex.json, ids),
        headers=headers,
    )


async def _seed_b(client, hdr: dict[str, str], db_url: str) -> dict[str, str]:
    """B's data, written through B's own key where the API allows it."""
    r = await client.post(
        "/v1/capture",
        headers=hdr,
        json={
            "events": [
                {
                    "project_id": B,
                    "subject_id": S,
                    "kind": "conversation.message",
                    "occurred_at": "2026-01-02T09:00:00Z",
                    "payload": {
                        "messages": [
                            {"role": "user", "content": "I live in Lyon and I prefer green tea."}
                        ]
                    },
                }
            ]
        },
    )
    assert r.status_code == 202, r.text
    event_id = r.json()["events"][0]["id"]
    r = await client.post(
        "/v1/consolidate/subject", params={"project_id": B, "subject_id": S}, headers=hdr
    )
    assert r.status_code == 200, r.text

    # A contradiction pair and its open conflict set, written directly so the ids are certain.
    with psycopg.connect(db_url) as conn:
        fact, rival = (
            conn.execute(
                "INSERT INTO facts (project_id, subject_id, predicate, value, status, search_text, source_event_ids) "
                "VALUES (%s, %s, 'employer', %s, %s, %s, ARRAY[%s]::uuid[]) RETURNING id::text",
                (B, S, f'"{name}"', status, f"employer: {name}", event_id),
            ).fetchone()[0]
            for name, status in (("Acme", "active"), ("Globex", "candidate"))
        )
        conflict = conn.execute(
            "INSERT INTO conflict_sets (project_id, subject_id, fact_ids, kind, reason) "
            "VALUES (%s, %s, ARRAY[%s, %s]::uuid[], 'contradiction', 'seed') RETURNING id::text",
            (B, S, fact, rival),
        ).fetchone()[0]
        job = conn.execute(
            "INSERT INTO jobs (kind, project_id, subject_id, payload, status, attempts, last_error) "
            "VALUES ('consolidate', %s, %s, '{}', 'failed', 3, 'seed') RETURNING id::text",
            (B, S),
        ).fetchone()[0]

    r = await client.post(
        "/v1/context", headers=hdr, json={"project_id": B, "subject_id": S, "query": "where"}
    )
    assert r.status_code == 200, r.text
    trace = r.json()["trace_id"]
    r = await client.post(
        "/v1/feedback", headers=hdr, json={"project_id": B, "trace_id": trace, "rating": "useful"}
    )
    assert r.status_code == 201, r.text
    r = await client.post(
        "/v1/forget", headers=hdr, json={"project_id": B, "subject_id": "gone", "mode": "delete"}
    )
    assert r.status_code == 200, r.text
    return {
        "B": B,
        "b_event": event_id,
        "b_fact": fact,
        "b_conflict": conflict,
        "b_trace": trace,
        "b_job": job,
    }


def _snapshot(db_url: str, project: str) -> dict[str, list[str]]:
    """Every row of the project in every table that has a project_id, read as the owner."""
    with psycopg.connect(db_url) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' "
                "AND column_name = 'project_id' ORDER BY table_name"
            )
        ]
        return {
            t: [
                r[0]
                for r in conn.execute(
                    psycopg.sql.SQL(
                        "SELECT row_to_json(x)::text FROM {} x WHERE project_id = %s ORDER BY 1"
                    ).format(psycopg.sql.Identifier(t)),
                    (project,),
                )
            ]
            for t in tables
        }


def _missing_ids(ids: dict[str, str]) -> dict[str, str]:
    return {k: (v if k == "B" else str(uuid.uuid4())) for k, v in ids.items()}


def _without_ids(body: dict, ids: dict[str, str]) -> str:
    text = str(body)
    for v in ids.values():
        text = text.replace(v, "<id>")
    return text


async def test_every_v1_route_refuses_strangers_and_other_tenants(authed_client, mint, db_url):
    c = authed_client
    routes = v1_operations(c.app)
    missing = sorted(routes - REQUESTS.keys() - PUBLIC)
    assert not missing, f"/v1 routes without an entry in the isolation matrix: {missing}"
    stale = sorted(REQUESTS.keys() - routes)
    assert not stale, f"matrix entries for routes that no longer exist: {stale}"

    a, b = await mint("proj-a"), await mint(B)
    revoked = await mint("proj-a")
    assert (await c.delete(f"/v1/keys/{revoked.record.id}", headers=ADMIN)).status_code == 200
    ids = {**await _seed_b(c, bearer(b.secret), db_url), "b_key": str(b.record.id)}
    before = _snapshot(db_url, B)
    assert (
        before["events"]
        and before["facts"]
        and before["conflict_sets"]
        and before["context_traces"]
    )
    assert (
        before["feedback"] and before["forget_receipts"] and before["api_keys"] and before["jobs"]
    )

    failures = []
    for (method, route), examples in sorted(REQUESTS.items()):
        for ex in examples:
            for who, headers, want in (
                ("no key", {}, 401),
                ("revoked key", bearer(revoked.secret), 401),
                ("A's key", bearer(a.secret), ex.expect),
            ):
                r = await _send(c, method, ex, ids, headers)
                label = f"{method} {route} {_fill(ex.path, ids)} {ex.params or ''} {ex.json or ''} [{who}]"
                if r.status_code != want:
                    failures.append(f"{label}: {r.status_code} {r.text[:200]}")
                elif want == 401 and r.json() != UNAUTHORIZED:
                    failures.append(f"{label}: 401 body {r.text[:200]}")
                elif want == 403 and r.json()["error"]["type"] != "forbidden_scope":
                    failures.append(f"{label}: 403 body {r.text[:200]}")
            if ex.same_as_missing:
                fresh = _missing_ids(ids)
                foreign = await _send(c, method, ex, ids, bearer(a.secret))
                absent = await _send(c, method, ex, fresh, bearer(a.secret))
                if (foreign.status_code, _without_ids(foreign.json(), ids)) != (
                    absent.status_code,
                    _without_ids(absent.json(), fresh),
                ):
                    failures.append(
                        f"{method} {route}: B's id {foreign.text[:150]} != missing id {absent.text[:150]}"
                    )

    assert not failures, "\n".join(failures)
    assert _snapshot(db_url, B) == before
