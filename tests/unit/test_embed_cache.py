import numpy as np
import pytest

from haki.providers.embed import LocalEmbedder
from haki.providers.embed_cache import DocumentCache, unique_positions


def test_unique_positions_fold_duplicates_in_first_seen_order():
    unique, positions = unique_positions(["ok", "thanks", "ok", "I live in Lyon.", "thanks"])
    assert unique == ["ok", "thanks", "I live in Lyon."]
    assert positions == [0, 1, 0, 2, 1]
    assert unique_positions([]) == ([], [])


def test_document_cache_keeps_short_texts_and_evicts_the_least_recent():
    cache = DocumentCache(size=2, max_chars=10)
    vectors = np.eye(3, dtype=np.float32)
    cache.put_many(["a", "b", "a text far too long"], vectors)
    assert len(cache) == 2  # the long text is not kept
    assert set(cache.get_many(["a"])) == {"a"}  # "a" becomes the most recent
    cache.put_many(["c"], vectors[2:])
    assert set(cache.get_many(["a", "b", "c"])) == {"a", "c"}
    kept = cache.get_many(["c"])["c"]
    assert not kept.flags.writeable
    np.testing.assert_array_equal(kept, vectors[2])
    vectors[2, 2] = 5.0  # the caller's array may change later: the cache holds a copy
    assert cache.get_many(["c"])["c"][2] == 1.0


def test_a_cache_of_size_zero_keeps_nothing():
    cache = DocumentCache(size=0)
    cache.put_many(["a"], np.ones((1, 3), dtype=np.float32))
    assert len(cache) == 0 and cache.get_many(["a"]) == {}


@pytest.fixture
def fresh_embedder() -> LocalEmbedder:
    return LocalEmbedder()


def test_duplicates_and_cached_texts_get_the_vectors_a_fresh_pass_gives(
    local_embedder: LocalEmbedder, fresh_embedder: LocalEmbedder
):
    texts = ["ok", "Thanks, that helps a lot.", "ok", "I moved to Lyon last year.", "ok"]
    local_embedder._documents.clear()
    first = local_embedder.embed_documents(texts)
    assert len(local_embedder._documents) == 3  # one row per distinct text
    # A later call mixes cached texts with a new one, in another batch shape.
    again = local_embedder.embed_documents(["I moved to Lyon last year.", "new words here", "ok"])
    # A fresh embedder, no cache, each text alone.
    alone = np.concatenate([fresh_embedder.embed_documents([t]) for t in texts])
    np.testing.assert_allclose(first, alone, atol=1e-6)
    np.testing.assert_array_equal(first[0], first[2])
    np.testing.assert_allclose(again[0], alone[3], atol=1e-6)
    np.testing.assert_allclose(again[2], alone[0], atol=1e-6)
    assert first.flags.writeable  # callers own what they get back
    first[0, 0] = 9.0
    np.testing.assert_allclose(local_embedder.embed_documents(["ok"])[0], alone[0], atol=1e-6)
