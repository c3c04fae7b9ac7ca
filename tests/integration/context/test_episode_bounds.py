"""Bounded work per call: every episode step stays under its cap, whatever the scope holds.

The scope is the worst case for the full-text leg: every turn shares every
word of the question, so each term could bring thousands of matches. The
counts the stage reports (``Haki-Work``, the trace) must stay under the caps
of ``episode_caps`` — and reach them, or the scope did not test anything.
"""

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import psycopg
import pytest

from haki.context.config import DEFAULT
from haki.context.episode_candidates import EpisodeWork, episode_caps
from haki.text.lexicon import query_terms
from seeding import copy_rows

PROJECT, SUBJECT = "proj", "alice"  # the scope the context tests' Api asks about
TURNS = 600
QUESTION = "What did Alice buy with Bruno in Lisbon?"
START = datetime.now(UTC) - timedelta(days=30)
EVENT = "00000000-0000-0000-0000-000000000016"  # the conversation every turn belongs to
CHUNK_COLUMNS = (
    "event_id", "ordinal", "project_id", "subject_id", "kind", "occurred_at", "text", "embedding",
)  # fmt: skip


def copy_chunks(db_url: str, texts: list[str], vectors, first: int) -> None:
    """Turns of EVENT, ordinals from ``first``, each a minute after the previous one."""
    rows = [
        (EVENT, n, PROJECT, SUBJECT, "conversation.message", START + timedelta(minutes=n), t, v)
        for n, (t, v) in enumerate(zip(texts, vectors, strict=True), start=first)
    ]
    copy_rows(db_url, "episode_chunks", CHUNK_COLUMNS, rows)


@pytest.fixture
def crowded(db_url: str, hash_embedder) -> str:
    """TURNS turns of one conversation, each holding every word of QUESTION, a minute apart."""
    texts = [f"Alice will buy Bruno a guitar in Lisbon, item {i}" for i in range(TURNS)]
    vectors = hash_embedder.embed_documents(texts)
    with psycopg.connect(db_url, autocommit=True) as owner:
        owner.execute(
            "INSERT INTO events (id, project_id, subject_id, kind, occurred_at, payload, hash, idempotency_key) "
            "VALUES (%s, %s, %s, 'm', %s, '{}', 'h', 'k')",
            (EVENT, PROJECT, SUBJECT, START),
        )
    copy_chunks(db_url, texts, vectors, first=0)
    return db_url


def _work(header: str) -> EpisodeWork:
    counts = dict(part.split("=") for part in header.split(", "))
    return EpisodeWork(
        lexical_postings=int(counts["episode_lexical_postings"]),
        lexical_fetched=int(counts["episode_lexical_fetched"]),
        lexical_ranked=int(counts["episode_lexical_ranked"]),
        pool=int(counts["episode_pool"]),
        neighbours=int(counts["episode_neighbours"]),
        ranked=int(counts["episode_ranked"]),
    )


def _within(work: EpisodeWork, caps: EpisodeWork) -> None:
    for name, n in work.as_dict().items():
        assert n <= caps.as_dict()[name], (name, n, caps)


async def _ask(api, query: str) -> tuple[EpisodeWork, dict]:
    r = await api.client.post(
        "/v1/context", json={"project_id": PROJECT, "subject_id": SUBJECT, "query": query}
    )
    assert r.status_code == 200, r.text
    return _work(r.headers["haki-work"]), r.json()


async def test_every_step_stays_under_its_cap_when_every_turn_matches(crowded, app_client):
    caps = episode_caps(DEFAULT)
    async with app_client() as api:
        work, out = await _ask(api, QUESTION)
        trace = await api.inspect(out["trace_id"])
    _within(work, caps)
    # The scope holds more matches than the caps allow: the caps did the bounding.
    # Each word brings its share of matches, plus the leg's K turns matching all of them.
    words = len(query_terms(QUESTION, DEFAULT.max_query_terms))
    each = min(DEFAULT.episode_term_matches, DEFAULT.episode_lexical_rows // words)
    assert work.lexical_fetched == words * each + DEFAULT.episode_candidates
    assert DEFAULT.episode_term_matches <= work.lexical_ranked <= work.lexical_fetched
    assert work.pool > DEFAULT.episode_candidates
    assert work.neighbours > 0 and work.pool <= work.ranked <= work.pool + work.neighbours
    assert len(out["packet"]["episodes"]) > 0
    # The trace keeps the same counts beside the timings.
    timings = trace["timings"]
    assert timings["episode_pool_rows"] == work.pool
    assert timings["episode_lexical_ranked_rows"] == work.lexical_ranked


async def test_smaller_caps_bound_a_long_query_of_common_words(crowded, app_client, monkeypatch):
    small = replace(
        DEFAULT,
        episode_term_matches=40,
        episode_lexical_rows=100,
        episode_candidates=12,
        episode_anchors=5,
    )
    monkeypatch.setattr("haki.api.routes.context.recipe", lambda *a, **k: small)
    caps = episode_caps(small)
    query = " ".join(["Alice will buy Bruno a guitar in Lisbon item"] * 3) + " 7 12 99"
    each = min(40, 100 // len(query_terms(query, small.max_query_terms)))
    async with app_client() as api:
        work, _ = await _ask(api, query)
    _within(work, caps)
    # The words share 100 fetches, plus at most 12 turns matching all of them.
    assert work.lexical_fetched <= 100 + min(each, 12)
    assert work.neighbours <= 5 * 2 * small.episode_neighbours


async def test_turns_fetched_times_terms_stay_under_the_rank_items_cap(
    crowded, app_client, monkeypatch
):
    """Each fetched turn is tested against every term kept: with a smaller
    ``episode_rank_items`` the question's words share fewer fetches."""
    words = len(query_terms(QUESTION, DEFAULT.max_query_terms))
    small = replace(DEFAULT, episode_rank_items=100 * words)
    monkeypatch.setattr("haki.api.routes.context.recipe", lambda *a, **k: small)
    async with app_client() as api:
        work, _ = await _ask(api, QUESTION)
    _within(work, episode_caps(small))
    # 100 fetches over the words, each stopping at its share, so the turns
    # holding every word are read too (as many as a share).
    each = 100 // words
    assert each < DEFAULT.episode_term_matches
    assert work.lexical_fetched == words * each + min(each, small.episode_candidates)


RARE_TURNS = 20


@pytest.fixture
def one_rare_word(crowded: str, hash_embedder) -> str:
    """The crowded scope, plus RARE_TURNS turns that also name a kayak."""
    texts = [f"Alice will buy Bruno a kayak, take {i}" for i in range(RARE_TURNS)]
    copy_chunks(crowded, texts, hash_embedder.embed_documents(texts), first=TURNS)
    return crowded


KAYAK = "Did Alice buy a kayak?"  # alice and buy in every turn, kayak in RARE_TURNS


async def _ask_with(api, monkeypatch, cfg, query: str) -> EpisodeWork:
    monkeypatch.setattr("haki.api.routes.context.recipe", lambda *a, **k: cfg)
    work, _ = await _ask(api, query)
    _within(work, episode_caps(cfg))
    return work


async def test_a_scope_smaller_than_the_term_cap_looks_every_term_up(
    one_rare_word, app_client, monkeypatch
):
    async with app_client() as api:
        work = await _ask_with(api, monkeypatch, DEFAULT, KAYAK)
    scope = TURNS + RARE_TURNS
    # No word can occur in more turns than the scope holds: the bound is
    # exact without statistics, and no term is left out.
    assert work.lexical_postings == 3 * scope
    # alice and buy bring their share, kayak all its turns; since kayak's
    # lookup is complete, the turns holding every term are among them already
    # and the intersection is not read (it would add RARE_TURNS).
    assert work.lexical_fetched == 2 * DEFAULT.episode_term_matches + RARE_TURNS


async def test_a_term_in_more_turns_than_its_cap_is_left_out(
    one_rare_word, app_client, monkeypatch
):
    small = replace(DEFAULT, episode_term_postings=300)
    async with app_client() as api:
        work = await _ask_with(api, monkeypatch, small, KAYAK)
    # alice and buy occur in every one of the 620 turns: only kayak is looked up.
    assert work.lexical_fetched == RARE_TURNS
    assert work.lexical_postings <= small.episode_term_postings


async def test_the_terms_kept_stay_under_the_postings_cap(one_rare_word, app_client, monkeypatch):
    small = replace(DEFAULT, episode_term_postings=1_000, episode_lexical_postings=700)
    async with app_client() as api:
        work = await _ask_with(api, monkeypatch, small, KAYAK)
    # The rarest first: kayak (20), then alice (620 postings, before buy by
    # name); buy would take the sum past 700.
    assert work.lexical_fetched == DEFAULT.episode_term_matches + RARE_TURNS
    assert RARE_TURNS + TURNS <= work.lexical_postings <= 700


async def test_no_term_under_the_caps_returns_nothing(one_rare_word, app_client, monkeypatch):
    tiny = replace(DEFAULT, episode_term_postings=10)
    async with app_client() as api:
        work = await _ask_with(api, monkeypatch, tiny, KAYAK)
    assert work.lexical_fetched == work.lexical_ranked == work.lexical_postings == 0
    assert work.pool > 0  # the cosine leg still finds turns


def test_caps_follow_the_config():
    caps = episode_caps(DEFAULT)
    assert caps.lexical_fetched == DEFAULT.episode_lexical_rows + DEFAULT.episode_candidates
    assert caps.lexical_ranked == caps.lexical_fetched
    assert caps.lexical_postings == DEFAULT.episode_lexical_postings
    assert caps.pool == 2 * DEFAULT.episode_candidates
    assert caps.neighbours == DEFAULT.episode_anchors * 2 * DEFAULT.episode_neighbours
    assert caps.ranked == caps.pool + caps.neighbours
    off = episode_caps(replace(DEFAULT, episode_fulltext=False))
    assert off.lexical_fetched == off.lexical_ranked == off.lexical_postings == 0
    assert off.pool == DEFAULT.episode_candidates
