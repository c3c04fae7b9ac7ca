"""A project's active embedding space is the project's, not the process's
(migration 0171): one server answers two projects in two spaces of two
sizes, each from its own; ``haki embeddings reembed --project`` moves one
populated project while context calls keep answering and the other stays."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import psycopg
from click.testing import CliRunner
from memory_calls import (
    TURNS,
    ask,
    endpoint_env,
    endpoint_settings,
    fact_values,
    remember,
    serving,
    stored_sizes,
)

from haki.cli import cli
from haki.config import load_settings
from haki.consolidator.project_spaces import ProjectSpaces
from haki.consolidator.spaces import use_embedder_space
from haki.storage.spaces import EmbeddingSpace, register_space, set_project_space

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "consolidator"))
from consolidator_helpers import as_url

QUERY = "Where do I live?"


async def test_two_projects_in_two_spaces_on_one_server(db_url, monkeypatch, bow_endpoint):
    small = bow_endpoint(768)
    # Slow enough that the re-embedding spans many context calls.
    large = bow_endpoint(1536, delay_s=0.05)
    # Each context call reads its project's space (test_the_cache_... below
    # checks the cache): a switch shows on the next call.
    monkeypatch.setenv("HAKI_EMBED_SPACE_CACHE_S", "0")
    settings = endpoint_settings(monkeypatch, small.url, 768)
    async with serving(settings, db_url) as c:
        for project in ("p1", "p2"):
            await remember(c, project, TURNS)
            assert "Lisbon" in fact_values(await ask(c, project, QUERY))
        assert stored_sizes(db_url, "p1") == stored_sizes(db_url, "p2") == {(768, 1)}

        # p2's vectors for the 1536-d space are staged, a row per transaction,
        # while both projects keep answering from the 768-d one.
        env = {"HAKI_DATABASE_URL": as_url(db_url), **endpoint_env(large.url, 1536)}
        args = ["embeddings", "reembed", "--project", "p2", "--batch", "1", "--quiet"]
        staging = asyncio.create_task(
            asyncio.to_thread(CliRunner().invoke, cli, [*args, "--no-switch"], env=env)
        )
        answers = []
        while not staging.done() or not answers:
            answers += [fact_values(await ask(c, p, QUERY)) for p in ("p1", "p2")]
        result = await staging
        assert result.exit_code == 0, result.output
        (staged,) = json.loads(result.output)
        assert staged["complete"] and staged["switched"] == {} and staged["space"] == 2
        assert len(answers) > 2 and all("Lisbon" in a for a in answers), str(answers)
        assert stored_sizes(db_url, "p2") == {(768, 1)}  # nothing moved yet

        # Run again, it finds everything staged and switches p2 alone, while
        # calls keep answering (a call that straddles the switch's commit may
        # answer from full text only: docs/embeddings.md).
        switching = asyncio.create_task(asyncio.to_thread(CliRunner().invoke, cli, args, env=env))
        while not switching.done():
            await ask(c, "p2", QUERY)
        result = await switching
        assert result.exit_code == 0, result.output
        (moved,) = json.loads(result.output)
        assert moved["project_id"] == "p2" and moved["complete"] and moved["switched"]["chunk"] == 3
        assert stored_sizes(db_url, "p2") == {(1536, 2)}
        assert stored_sizes(db_url, "p1") == {(768, 1)}

        # The same server (configured for the 768-d model) now embeds p2's
        # questions with p2's model, and p1's with its own.
        asked_large = len(large.inputs)
        assert "Lisbon" in fact_values(await ask(c, "p2", "Where do I live now?"))
        assert large.inputs[asked_large:] == ["Where do I live now?"]
        asked_small = len(small.inputs)
        assert "Lisbon" in fact_values(await ask(c, "p1", "Where do I live today?"))
        assert small.inputs[asked_small:] == ["Where do I live today?"]

        # New turns of p2, consolidated by this server, land in p2's space.
        await remember(c, "p2", ["I moved to Porto last week."], at=10)
        assert stored_sizes(db_url, "p2") == {(1536, 2)}
        assert "Porto" in fact_values(await ask(c, "p2", "Where did I move?"))

    env = {"HAKI_DATABASE_URL": as_url(db_url), **endpoint_env(small.url, 768)}
    status = await asyncio.to_thread(CliRunner().invoke, cli, ["embeddings", "status"], env=env)
    assert status.exit_code == 0, status.output
    projects = {p["project_id"]: p for p in json.loads(status.output)["projects"]}
    assert projects["p1"]["active_space"] is None  # the serving process's own
    assert projects["p2"]["active_space"] == 2
    assert [s["dimensions"] for s in json.loads(status.output)["spaces"]] == [768, 1536]

    # `haki facts reembed` (768-d settings) rewrites each project's stale
    # facts with that project's model, in its space.
    with psycopg.connect(db_url) as conn:
        conn.execute("UPDATE facts SET search_text = 'stale'")
    result = await asyncio.to_thread(
        CliRunner().invoke, cli, ["facts", "reembed", "--quiet"], env=env
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["rewritten"] >= 4
    assert stored_sizes(db_url, "p2") == {(1536, 2)}
    assert stored_sizes(db_url, "p1") == {(768, 1)}


async def test_a_read_may_use_the_space_read_within_the_cache_time(db, hash_embedder):
    """Context calls may use a project's space as read up to
    HAKI_EMBED_SPACE_CACHE_S ago; writes (fresh) always read it."""
    now = [0.0]
    # register_space makes the space db's own: the process's space last.
    other = await register_space(db, EmbeddingSpace("hash", "other", 384), {"provider": "hash"})
    await use_embedder_space(db, hash_embedder)
    settings = load_settings(embed_space_cache_s=1.0)
    spaces = ProjectSpaces(db, settings, hash_embedder, clock=lambda: now[0])
    assert (await spaces.for_project("p1", fresh=False))[0] == db.embedding_space
    async with db.transaction(system=True) as conn:
        await set_project_space(conn, "p1", other)
    now[0] = 0.9
    assert (await spaces.for_project("p1", fresh=False))[0] == db.embedding_space  # cached
    space, embedder = await spaces.for_project("p1")  # a write reads it
    assert space == other and embedder.dim == 384 and embedder is not hash_embedder
    now[0] = 2.0
    assert (await spaces.for_project("p1", fresh=False))[0] == other


async def test_a_call_right_after_a_switch_answers_from_the_new_space(
    db_url, monkeypatch, bow_endpoint
):
    """A context call may use a project's space as read by an earlier call,
    but checks it in its own transaction: the first call after a switch,
    well within the cache time, embeds its question with the new model and
    is answered from the new space's vectors (not by full text alone)."""
    small, large = bow_endpoint(768), bow_endpoint(1536)
    monkeypatch.setenv("HAKI_EMBED_SPACE_CACHE_S", "60")  # the row read once stays cached
    settings = endpoint_settings(monkeypatch, small.url, 768)
    async with serving(settings, db_url) as c:
        await remember(c, "p1", TURNS)
        assert "Lisbon" in fact_values(await ask(c, "p1", QUERY))  # caches p1's space

        env = {"HAKI_DATABASE_URL": as_url(db_url), **endpoint_env(large.url, 1536)}
        args = ["embeddings", "reembed", "--project", "p1", "--quiet"]
        result = await asyncio.to_thread(CliRunner().invoke, cli, args, env=env)
        assert result.exit_code == 0, result.output
        assert stored_sizes(db_url, "p1") == {(1536, 2)}

        asked = len(large.inputs)
        query = "Where do I live these days?"
        r = await c.post(
            "/v1/context", json={"project_id": "p1", "subject_id": "u1", "query": query}
        )
        assert r.status_code == 200, r.text
        answer = r.json()
        assert large.inputs[asked:] == [query]  # embedded by the new space's model
        lisbon = [f for f in answer["packet"]["facts"] if f["value"] == "Lisbon"]
        assert lisbon, answer
        trace = await c.get(
            f"/v1/inspect/{answer['trace_id']}", params={"project_id": "p1", "subject_id": "u1"}
        )
        assert trace.status_code == 200, trace.text
        served = {d["id"]: d for d in trace.json()["decisions"] if d["action"] == "included"}
        # Compared with the new space's vectors: the fact has semantic evidence.
        assert served[lisbon[0]["id"]]["score"]["semantic"] > 0


async def test_a_project_behind_another_keyed_endpoint(db_url, monkeypatch, bow_endpoint):
    """A server configured for one endpoint answers a project whose space is
    behind another endpoint that needs a key when HAKI_EMBED_API_KEYS names
    that endpoint's key; without it the endpoint refuses (502), and the
    recipe in the database holds no key."""
    small, large = bow_endpoint(768), bow_endpoint(1536, key="sk-large")
    settings = endpoint_settings(monkeypatch, small.url, 768)
    env = {
        "HAKI_DATABASE_URL": as_url(db_url),
        **endpoint_env(large.url, 1536),
        "HAKI_EMBED_API_KEY": "sk-large",
    }
    keyed = settings.model_copy(update={"embed_api_keys": {large.url + "/": "sk-large"}})
    for config, status in ((settings, 502), (keyed, 200)):
        async with serving(config, db_url) as c:
            if status == 502:
                await remember(c, "p1", TURNS)
                args = ["embeddings", "reembed", "--project", "p1", "--quiet"]
                result = await asyncio.to_thread(CliRunner().invoke, cli, args, env=env)
                assert result.exit_code == 0, result.output
                assert stored_sizes(db_url, "p1") == {(1536, 2)}
            asked = len(large.inputs)
            r = await c.post(
                "/v1/context", json={"project_id": "p1", "subject_id": "u1", "query": QUERY}
            )
            assert r.status_code == status, r.text
            if status == 502:
                assert r.json()["error"]["type"] == "provider_error"
                assert large.inputs[asked:] == []
            else:
                assert "Lisbon" in fact_values(r.json()["packet"])
                assert large.inputs[asked:] == [QUERY]
    with psycopg.connect(db_url) as conn:
        recipes = [r for (r,) in conn.execute("SELECT recipe::text FROM embedding_spaces")]
    assert recipes and not any("sk-large" in (r or "") for r in recipes)
