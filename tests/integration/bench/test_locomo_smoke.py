"""The LoCoMo harness end to end on a slice of one conversation (the full run is bench/locomo.py)."""

import pytest

from bench_modules import load_bench


@pytest.fixture(scope="module")
def locomo():
    module = load_bench("locomo.py", "locomo_bench")
    if not module.DATA.exists():
        pytest.fail(f"LoCoMo dev data missing at {module.DATA}")
    return module


def test_session_dates_and_evidence_ids_parse(locomo):
    assert (
        locomo.parse_session_date("1:56 pm on 8 May, 2023").isoformat()
        == "2023-05-08T13:56:00+00:00"
    )
    assert locomo.evidence_ids(["D1:3", "D2:4; D2:5"]) == frozenset({"D1:3", "D2:4", "D2:5"})


def test_answer_share_counts_the_answer_words_served(locomo):
    q = locomo.Question(
        "conv",
        "What does Melanie do?",
        frozenset({"D1:1"}),
        1,
        frozenset(locomo.content_terms("pottery, camping")),
    )
    assert locomo.answer_share(q, "Melanie: I signed up for a pottery class") == 0.5
    assert locomo.answer_share(q, "[2023-05-08] Melanie: we went camping, then pottery") == 1.0
    assert (
        locomo.answer_share(locomo.Question("conv", "q", frozenset(), 5, frozenset()), "anything")
        is None
    )


async def test_harness_ingests_consolidates_and_scores_through_the_api(locomo, client):
    turns, questions = locomo.load(locomo.DATA, conversations=1, questions=6)
    # The first three sessions and the questions whose evidence lies there.
    sessions = {f"D{n}" for n in (1, 2, 3)}
    turns = [t for t in turns if t.dia_id.split(":")[0] in sessions]
    questions = [q for q in questions if {e.split(":")[0] for e in q.evidence} <= sessions]
    assert turns and questions
    result = locomo.RunResult()
    locomo.bm25_floor(turns, questions, (300, 900), result)
    await locomo.run_haki(client, turns, questions, (300, 900), result)
    rows = {(r["system"], r["budget"]): r for r in locomo.summarise(result)}
    for budget in (300, 900):
        haki = rows[("haki", budget)]
        assert haki["questions"] == len(questions)
        assert 0 < haki["mean_tokens"] <= budget
        assert 0.0 <= haki["recall"] <= 1.0 and 0.0 <= haki["answer"] <= 1.0
    # On this slice the assembler finds most of the evidence at 900 tokens.
    assert rows[("haki", 900)]["recall"] >= 0.5
