"""Bounded work per call on the fact side: the full-text leg and the multi-hop.

A scope where every fact shares the question's words and names one of two
other people: the full-text leg could score every fact, and each hop entity
half of them. The counts the call reports (``Haki-Work``) must stay under the
caps of ``fact_caps`` — and reach them, or the scope tested nothing.
"""

import json
from dataclasses import replace

import psycopg
import pytest

from haki.context.candidates import FactWork, fact_caps
from haki.context.config import DEFAULT
from seeding import copy_facts

PROJECT, SUBJECT = "proj", "alice"
FACTS = 200
QUESTION = "What did Alice buy in Lisbon?"
SMALL = replace(
    DEFAULT,
    top_k=8,
    fulltext_scan_limit=50,
    multi_hop_max_entities=2,
    multi_hop_max_per_entity=5,
    multi_hop_scan_limit=30,
)


@pytest.fixture
def crowded(db_url: str, hash_embedder) -> str:
    """FACTS facts, each naming Alice, Lisbon, and Bruno or Chloe."""
    texts = [
        f"Alice bought a guitar in Lisbon with {('Bruno', 'Chloe')[i % 2]}, receipt {i}"
        for i in range(FACTS)
    ]
    copy_facts(db_url, PROJECT, SUBJECT, texts, hash_embedder.embed_documents(texts))
    return db_url


def _work(header: str) -> FactWork:
    counts = dict(part.split("=") for part in header.split(", "))
    return FactWork(**{name: int(counts[key]) for name, key in _KEYS.items()})


_KEYS = {
    "lexical_postings": "fact_lexical_postings",
    "lexical_ranked": "fact_lexical_ranked",
    "pool": "fact_pool",
    "hop_entities": "hop_entities",
    "hop_ranked": "hop_ranked",
    "hop_rows": "hop_rows",
}


async def _ask(api, query: str) -> tuple[FactWork, dict]:
    r = await api.client.post(
        "/v1/context",
        json={"project_id": PROJECT, "subject_id": SUBJECT, "query": query, "budget_tokens": 2000},
    )
    assert r.status_code == 200, r.text
    return _work(r.headers["haki-work"]), r.json()


async def test_fact_steps_reach_their_caps_and_never_pass_them(
    crowded, app_client, hash_embedder, monkeypatch
):
    monkeypatch.setattr("haki.api.routes.context.recipe", lambda *a, **k: SMALL)
    caps = fact_caps(SMALL)
    async with app_client(embedder=hash_embedder) as api:
        work, out = await _ask(api, QUESTION)
        trace = await api.inspect(out["trace_id"])
    for name, n in work.as_dict().items():
        assert n <= caps.as_dict()[name], (name, n, caps)
    # Every fact matches: the scan cap, not the scope, bounded the leg.
    assert work.lexical_ranked == SMALL.fulltext_scan_limit
    assert SMALL.top_k <= work.pool <= 2 * SMALL.top_k
    # Bruno and Chloe are looked up, each named by more facts than the cap.
    assert work.hop_entities == 2
    assert work.hop_ranked == 2 * SMALL.multi_hop_scan_limit
    assert work.hop_rows == 2 * SMALL.multi_hop_max_per_entity
    hops = [d for d in trace["decisions"] if d["reason_code"] == "multi_hop_expansion"]
    assert len(hops) == work.hop_rows
    assert trace["timings"]["fact_lexical_ranked_rows"] == work.lexical_ranked


async def test_under_the_cap_every_match_is_scored(crowded, app_client, hash_embedder):
    async with app_client(embedder=hash_embedder) as api:
        work, _ = await _ask(api, QUESTION)
    assert work.lexical_ranked == FACTS < DEFAULT.fulltext_scan_limit
    assert work.pool <= 2 * DEFAULT.top_k


async def test_the_words_kept_stay_under_the_postings_cap(
    crowded, app_client, hash_embedder, monkeypatch
):
    """Every fact holds alice, guitar and lisbon (200 each), half of them
    bruno (100): rarest first, bruno and alice fit under 450, guitar would
    not, nor lisbon after it."""
    async with app_client(embedder=hash_embedder) as api:
        work, _ = await _ask(api, "Alice, guitar, Lisbon, Bruno?")
    # 200 facts, four words: no cap can bind, the statistics are not read and
    # the bound that held is reported.
    assert work.lexical_postings == 4 * FACTS <= DEFAULT.fulltext_max_postings
    capped = replace(DEFAULT, fulltext_max_postings=450)
    monkeypatch.setattr("haki.api.routes.context.recipe", lambda *a, **k: capped)
    async with app_client(embedder=hash_embedder) as api:
        work, _ = await _ask(api, "Alice, guitar, Lisbon, Bruno?")
    assert work.lexical_postings == FACTS + FACTS // 2


async def test_matches_times_query_items_stay_under_the_rank_items_cap(
    crowded, app_client, hash_embedder, monkeypatch
):
    """Each match is tested against every term kept, or scored against the
    whole query's items when the parser splits a term (an id) into a phrase:
    matches scored times those items stay under ``fulltext_rank_items``."""
    small = replace(SMALL, fulltext_rank_items=120)
    monkeypatch.setattr("haki.api.routes.context.recipe", lambda *a, **k: small)
    with psycopg.connect(crowded) as conn:
        (items,) = conn.execute(
            "SELECT numnode(websearch_to_tsquery('simple', %s))",
            ("alice or guitar or lisbon or 186e42e8bb5b",),
        ).fetchone()
    assert items > 4  # the id is a phrase of two lexemes
    async with app_client(embedder=hash_embedder) as api:
        whole, _ = await _ask(api, "Alice, guitar, Lisbon, 186e42e8bb5b?")
        own, _ = await _ask(api, "Alice, guitar, Lisbon?")
        one, _ = await _ask(api, "Lisbon?")
    # Every fact holds alice, guitar and lisbon: the cap, not the scope, binds.
    assert whole.lexical_ranked == max(small.top_k, 120 // items)
    assert own.lexical_ranked == 120 // 3 < small.fulltext_scan_limit
    assert one.lexical_ranked == small.fulltext_scan_limit  # 120 items for one: the scan limit


FULL_QUERY_RANK = """
SELECT t.id, t.fulltext, ts_rank_cd(f.search_vector,
           websearch_to_tsquery('simple', array_to_string(%(terms)s::text[], ' or ')), 32)::float8 AS whole
FROM context_fact_lexical(%(subject)s, ARRAY['active'], now(), false, '{}'::uuid[],
                          %(terms)s::text[], 500, 1e9, 2000) t
JOIN facts f ON f.id = t.id"""


def test_each_match_is_scored_as_the_whole_query_would(crowded):
    """From two words up each match is scored against the words it holds
    (ts_rank_cd zeroes 32 kB per query item for every match): the scores
    must be the whole query's, to the last bit, on facts that repeat words,
    hold several of them, or one."""
    extra = [
        "Bruno Bruno guitar, then Bruno again",
        "Lisbon guitar guitar Alice Lisbon Lisbon",
        "Chloe alone",
        "a receipt for a receipt about guitar strings and Lisbon trams",
    ]
    with psycopg.connect(crowded, autocommit=True) as owner:
        for text in extra:
            owner.execute(
                "INSERT INTO facts (project_id, subject_id, predicate, value, status, confidence, "
                "search_text) VALUES (%s, %s, 'note', %s, 'active', 0.8, %s)",
                (PROJECT, SUBJECT, json.dumps(text), text),
            )
        owner.execute("SET ROLE haki_app")
        owner.execute("SELECT set_config('app.project_id', %s, false)", (PROJECT,))
        for terms in (
            ["guitar", "bruno"],
            ["lisbon", "chloe", "receipt"],
            ["alice", "guitar", "lisbon", "bruno"],
            ["bruno", "chloe", "receipt", "trams", "strings", "again"],
        ):
            rows = owner.execute(FULL_QUERY_RANK, {"terms": terms, "subject": SUBJECT}).fetchall()
            assert len(rows) > FACTS // 2
            assert all(fulltext == whole for _, fulltext, whole in rows), rows
            assert len({fulltext for _, fulltext, _ in rows}) > 2  # the scores differ


def test_fact_caps_follow_the_config():
    caps = fact_caps(DEFAULT)
    assert caps.lexical_postings == DEFAULT.fulltext_max_postings
    assert caps.lexical_ranked == DEFAULT.fulltext_scan_limit
    assert caps.pool == 2 * DEFAULT.top_k
    assert caps.hop_entities == DEFAULT.multi_hop_max_entities
    assert caps.hop_ranked == DEFAULT.multi_hop_max_entities * DEFAULT.multi_hop_scan_limit
    assert caps.hop_rows == DEFAULT.multi_hop_max_entities * DEFAULT.multi_hop_max_per_entity
