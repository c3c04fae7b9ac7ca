"""The static embedding table: WordPiece cuts, packed sums, encoding, and that the
distilled table carries meaning the words alone do not."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from haki.engram import semantic
from haki.engram.distil import write_table


def tiny_table(tmp_path: Path) -> semantic.Table:
    pieces = ["[x]", "run", "##ning", "test", "##s", "fast", "slow"]
    rng = np.random.default_rng(3)
    vectors = rng.normal(size=(len(pieces), 8)).astype(np.float32)
    path = tmp_path / "t.bin"
    write_table(path, pieces, vectors, dim=8)
    return semantic.Table(path)


def test_wordpiece_cuts_longest_match_first(tmp_path: Path) -> None:
    table = tiny_table(tmp_path)
    assert table.pieces("running") == [table.vocab["run"], table.vocab["##ning"]]
    assert table.pieces("tests") == [table.vocab["test"], table.vocab["##s"]]
    assert table.pieces("zebra") == []  # the model's [UNK]: left out


def test_packed_sum_is_the_weighted_mean_of_the_rows(tmp_path: Path) -> None:
    table = tiny_table(tmp_path)
    raw = (
        np.frombuffer(
            Path(tmp_path / "t.bin").read_bytes()[-table.dim * len(table.vocab) :], dtype=np.uint8
        )
        .reshape(len(table.vocab), table.dim)
        .astype(np.float64)
        - 128
    )
    ids = table.pieces("running") + table.pieces("fast")
    weights = [3 * max(1, round(semantic.WEIGHT_STEPS * math.log1p(n))) for n in ids]
    expected = sum(w * raw[n] for w, n in zip(weights, ids, strict=True))
    expected /= np.linalg.norm(expected)
    got = table.embed([("running fast", 3), ("the and of", 5)])  # stop words add nothing
    assert got is not None
    assert np.allclose(got, expected)
    assert table.embed([("the of", 1)]) is None


def test_vectors_survive_the_index_encoding() -> None:
    vector = [600_000, -800_000, 3]
    decoded = semantic.decode(semantic.encode(vector))
    assert decoded is not None and semantic.cosine([0.6, -0.8, 0.0], decoded) > 0.999
    assert semantic.encode(None) == "" and semantic.decode("") is None


def _packed(fields: list[int]) -> int:
    return int.from_bytes(b"".join(f.to_bytes(4, "little") for f in fields), "little")


@pytest.mark.parametrize("seed", range(40))
def test_packed_encoding_matches_the_field_by_field_one(seed: int) -> None:
    rng = np.random.default_rng(seed)
    dim = int(rng.integers(1, 40))
    weight_sum = int(rng.choice([1, 7, 1_000, 200_000, 16_000_000]))
    # Fields as a weighted sum of rows holds them: 0 <= f <= 255 * weight_sum.
    fields = [int(f) for f in rng.integers(0, 255 * weight_sum + 1, size=dim)]
    bias = 128 * weight_sum
    expected = semantic.encode([f - bias for f in fields])
    assert semantic.encode_packed(_packed(fields), weight_sum, dim) == expected


@pytest.mark.parametrize(
    ("raw", "weight_sum"),
    [
        ([0, 0, 0], 1),  # every field at the bias: shift 0, all zeros
        ([-128, 127, 0], 1),  # the int8 range's ends
        ([-128 * 5, 127 * 5, -1], 5),  # a negative field shifted floors, as ``>>`` does
        ([-(1 << 30), 1 << 29, 5], 1 << 23),
        ([-(1 << 31) - 256, 3, 4], (1 << 24) + 2),  # bias over 2**31: the field-by-field path
    ],
)
def test_packed_encoding_edges(raw: list[int], weight_sum: int) -> None:
    bias = 128 * weight_sum
    got = semantic.encode_packed(_packed([r + bias for r in raw]), weight_sum, len(raw))
    assert got == semantic.encode(raw)


def test_memory_vectors_encode_as_before(tmp_path: Path) -> None:
    table = tiny_table(tmp_path)
    parts = [(["running", "fast", "tests"], 6), (["slow", "running"], 1)]
    assert table.embed_encoded(parts) == semantic.encode(table.embed_words(parts))
    assert table.embed_encoded([(["the"], 1)]) == ""


def test_the_distilled_table_knows_paraphrases(static_table: Path) -> None:
    table = semantic.Table(static_table)

    def sim(a: str, b: str) -> float:
        va, vb = table.embed([(a, 1)]), table.embed([(b, 1)])
        assert va is not None and vb is not None
        return semantic.cosine(va, vb)

    # No shared word, yet closer in meaning than an unrelated pair.
    task = "the homepage takes ages to render"
    assert sim(task, "slow page load performance") > sim(task, "database schema migration")
    assert sim("store the api key", "hardcoded secrets credentials") > sim(
        "store the api key", "css grid layout"
    )


def test_scanned_lookups_give_the_dictionary_rows(
    static_table: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A load finds its few pieces by scanning the vocabulary bytes; indexing builds the
    dictionary. Both must give the same rows, so the same vectors."""
    full = semantic.Table(static_table).vocab
    pieces = [*sorted(full)[::97], "##ing", "migration", "zzzqqqx", "##", "[CLS]"]
    monkeypatch.setattr(semantic, "SCANNED_LOOKUPS", 10**9)
    scanning = semantic.Table(static_table)
    assert [scanning.row_of(p) for p in pieces] == [full.get(p) for p in pieces]
    assert scanning._vocab is None  # every answer came from the scan
    task = [("add a column to the users table with a new migration", 1)]
    by_scan = semantic.Table(static_table).embed_raw(task)
    monkeypatch.setattr(semantic, "SCANNED_LOOKUPS", 0)
    assert by_scan == semantic.Table(static_table).embed_raw(task)
