"""Arbitrary user text never raises: quotes, operators, emoji, stop words, 10 KB."""

import pytest

WEIRD = [
    "",
    "   ",
    'she said "lyon" -paris OR nice',
    "lyon & paris | !nice <-> (a:*)",
    "'; DROP TABLE facts; --",
    "\\ \\\\ %s %(x)s {} []",
    "🙂🏠 Lyon? 🤔",
    "the and of or is a",
    "or or or and not",
    "nul\x00byte lyon",
    "ünïcödé ﬁ Ω ≠ 中文 العربية",
    "lyon " * 2_000,
    "x" * 10_240,
    " ".join(f"word{i}" for i in range(2_000)),
]


@pytest.mark.parametrize("query", WEIRD, ids=range(len(WEIRD)))
async def test_weird_query_text_answers_200(api, seed, query):
    await seed.fact("lives in Lyon", predicate="home_city")
    out, trace = await api.ask_and_inspect(query)
    assert out["packet"]["status"] == "ok"
    assert trace["query"] == query.replace("\x00", "")


async def test_lexical_leg_finds_exact_words(api, seed):
    target = await seed.fact("license plate XK-4471-QZ", predicate="car")
    out = await api.ask('what is "XK-4471-QZ"?')
    assert str(target) in api.fact_ids(out)
    trace = await api.inspect(out["trace_id"])
    assert api.decision(trace, target)["score"]["fulltext"] > 0
