import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest

from haki.providers.embed import HashEmbedder, LocalEmbedder
from haki.providers.embed_groups import CALL_OVERHEAD_TOKENS, MAX_GROUP_ROWS, token_groups

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "reference_embeddings.json"


def uncached(embedder: LocalEmbedder, texts: list[str]) -> np.ndarray:
    """Vectors the model computes now, not ones kept from an earlier call."""
    embedder._documents.clear()
    return embedder.embed_documents(texts)


@pytest.fixture(scope="module")
def packaged() -> LocalEmbedder:
    """Documents on the packaged float model (HAKI_EMBED_FAST_DOCUMENTS=false):
    its batching is what these tests check; the int8 default's one text per
    call is tests/unit/test_fast_documents.py's."""
    return LocalEmbedder(fast_documents=False)


@pytest.fixture(scope="module")
def reference():
    return json.loads(FIXTURE.read_text())


def test_local_matches_fp32_reference(packaged: LocalEmbedder, reference):
    got = packaged.embed_documents(reference["sentences"])
    want = np.asarray(reference["vectors"], dtype=np.float32)
    assert got.shape == (len(reference["sentences"]), 384)
    cosines = (got * want).sum(axis=1) / np.linalg.norm(want, axis=1)
    assert cosines.min() >= 0.99, cosines


def test_local_vectors_are_unit_length_and_order_independent(packaged: LocalEmbedder):
    texts = ["short", "a much longer sentence about moving from Paris to Lyon", "mid length text"]
    batch = packaged.embed_documents(texts)
    np.testing.assert_allclose(np.linalg.norm(batch, axis=1), 1.0, atol=1e-5)
    single = np.concatenate([uncached(packaged, [t]) for t in texts])
    np.testing.assert_allclose(batch, single, atol=1e-4)


def test_queries_run_on_the_int8_query_model_close_to_the_reference(
    packaged: LocalEmbedder, reference
):
    assert packaged.name.endswith("+int8-queries")
    got = np.stack([packaged.embed_query(t) for t in reference["sentences"]])
    want = np.asarray(reference["vectors"], dtype=np.float32)
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    cosines = (got * want).sum(axis=1) / np.linalg.norm(want, axis=1)
    assert cosines.min() >= 0.98, cosines
    # Not the packaged model's vectors: the query model really is in use.
    assert not np.allclose(got, packaged.embed_documents(reference["sentences"]), atol=1e-4)


def test_the_query_model_is_built_once_into_the_cache(tmp_path):
    from haki.providers.embed import model_files
    from haki.providers.query_model import query_model

    source, _ = model_files()
    first = query_model(source, tmp_path)
    built_at = first.stat().st_mtime_ns
    assert query_model(source, tmp_path) == first and first.stat().st_mtime_ns == built_at
    assert [p.name for p in tmp_path.iterdir()] == [first.name]  # no temporary left behind


def test_without_the_query_model_queries_use_the_packaged_one(monkeypatch, caplog):
    import haki.providers.query_model as qm

    def broken(source, cache_dir, **options):
        raise ImportError("onnx is not installed")

    monkeypatch.setattr(qm, "query_model", broken)
    embedder = LocalEmbedder()
    text = "a much longer sentence about moving from Paris to Lyon"
    np.testing.assert_allclose(
        embedder.embed_query(text), embedder.embed_documents([text])[0], atol=1e-4
    )
    assert "fast int8 model unavailable (onnx is not installed)" in caplog.text


def test_local_captures_meaning(local_embedder: LocalEmbedder):
    a, b, c = local_embedder.embed_documents(
        ["I moved to Lyon last year", "Last year I relocated to Lyon", "The invoice is overdue"]
    )
    assert float(a @ b) > float(a @ c) + 0.3


def test_empty_batch():
    assert HashEmbedder().embed_documents([]).shape == (0, 384)


def test_hash_embedder_is_deterministic_and_lexical():
    h = HashEmbedder()
    a1, a2, b = h.embed_documents(["tea with milk", "tea with milk", "quarterly invoices"])
    np.testing.assert_array_equal(a1, a2)
    assert float(a1 @ b) < 0.5


def test_token_groups_bound_the_padded_size():
    lengths = [10, 400, 20, 600, 30, 10]
    groups = token_groups(lengths, budget=1000)
    assert sorted(i for g in groups for i in g) == list(range(len(lengths)))
    assert all(len(g) == 1 or max(lengths[i] for i in g) * len(g) <= 1000 for g in groups)
    assert groups[0] == [0, 5]  # shortest first, ties by position; 20 is not padded up to 30


def _cost(lengths: list[int], groups: list[list[int]]) -> int:
    return sum(max(lengths[i] for i in g) * len(g) + CALL_OVERHEAD_TOKENS for g in groups)


def test_token_groups_minimise_padding_plus_calls():
    rng = random.Random(7)
    for _ in range(30):
        lengths = [rng.choice([4, 12, 13, 30, 31, 90]) for _ in range(rng.randint(1, 9))]
        groups = token_groups(lengths, budget=2048)
        order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
        # Brute force over every way to cut the sorted rows into contiguous groups.
        best = min(
            _cost(
                lengths, [order[a:b] for a, b in zip((0, *cuts), (*cuts, len(order)), strict=True)]
            )
            for k in range(len(order))
            for cuts in itertools.combinations(range(1, len(order)), k)
        )
        assert _cost(lengths, groups) == best


def test_token_groups_keep_equal_rows_together_up_to_the_row_cap():
    groups = token_groups([30] * 100, budget=4096)
    assert [len(g) for g in groups] == [36, MAX_GROUP_ROWS]
    assert [i for g in groups for i in g] == list(range(100))


def test_grouping_does_not_change_vectors(packaged: LocalEmbedder):
    texts = [f"sentence number {i} " + "word " * (i * 7 % 40) for i in range(40)]
    grouped = uncached(packaged, texts)
    one_by_one = np.concatenate([uncached(packaged, [t]) for t in texts])
    np.testing.assert_allclose(grouped, one_by_one, atol=1e-4)


def test_repeated_queries_come_from_a_read_only_cache(local_embedder: LocalEmbedder):
    first = local_embedder.embed_query("where does my sister live?")
    again = local_embedder.embed_query("where does my sister live?")
    assert again is first and not first.flags.writeable
    local_embedder._cached_query.cache_clear()  # computed again: the same vector
    np.testing.assert_allclose(
        first, local_embedder.embed_query("where does my sister live?"), atol=1e-6
    )
