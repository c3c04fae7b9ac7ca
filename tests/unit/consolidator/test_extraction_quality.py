"""The rules extractor's quality on the labelled sets must not regress (bench/extraction_quality.py)."""

import pytest

from bench_modules import load_bench


@pytest.fixture(scope="module")
def quality():
    module = load_bench("extraction_quality.py", "extraction_quality")
    return module.report(module.load_all(), module.load(module.CORRECTIONS))


def test_the_set_is_large_and_bilingual(quality):
    assert quality["turns"] >= 500
    assert quality["locomo"]["labelled_facts"] == 57
    assert quality["heldout"]["turns"] >= 100 and quality["all"]["corrections"] >= 30


def test_recall_at_precision_on_the_whole_set(quality):
    # Goal of issue 15: recall >= 0.5 at precision >= 0.9.
    assert quality["all"]["precision"] >= 0.9
    assert quality["all"]["recall"] >= 0.5


def test_every_explicit_correction_supersedes_what_it_corrects(quality):
    assert quality["dev"]["correction_rate"] == 1.0
    assert quality["heldout"]["correction_rate"] >= 0.9


def test_no_split_regresses(quality):
    # Floors a little under the measured figures (README): a regression fails.
    assert quality["heldout"]["precision"] >= 0.9 and quality["heldout"]["recall"] >= 0.65
    assert quality["locomo"]["precision"] >= 0.85 and quality["locomo"]["recall"] >= 0.2


def test_traps_give_no_wrong_fact(quality):
    # Someone else's words, doubt, jokes taken back, pets that died: the
    # mended cases give none; the held-out ones at most the two measured.
    assert quality["traps-dev"]["wrong"] == 0
    assert quality["traps-heldout"]["turns"] >= 30 and quality["traps-heldout"]["wrong"] <= 2


@pytest.mark.parametrize(
    ("split", "precision", "recall", "resolved"),
    [
        # Floors a little under the measured figures (tests/fixtures/extraction/README.md).
        ("facts-train3", 0.9, 0.95, 40),
        ("facts-check3", 0.9, 0.75, 20),
        # dates-train2 labels "engaged to Priya/Julien" as a status only; the
        # rules also store the partner's name, counted as two wrong facts.
        ("dates-train2", 0.93, 0.95, 51),
        ("facts-train4", 0.93, 0.9, 52),
        ("facts-train6", 0.92, 0.88, 15),
        ("dates-train8", 0.8, 0.82, 42),
        ("dates-check8", 0.8, 0.8, 40),
        ("dates-train9", 0.9, 0.92, 32),
    ],
)
def test_dated_splits_read_the_fact_and_its_time(split, precision, recall, resolved):
    module = load_bench("extraction_quality.py", "extraction_quality")
    rows = [r for r in module.load(module.DATES) if r["split"] == split]
    score, _ = module.evaluate(rows)
    assert score.precision >= precision and score.recall >= recall
    assert module.date_report(rows)[split]["resolved"] >= resolved
