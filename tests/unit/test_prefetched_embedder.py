import numpy as np

from haki.consolidator.embedding import PrefetchedEmbedder
from haki.providers.embed import HashEmbedder


class Recording(HashEmbedder):
    def __init__(self):
        self.seen: list[list[str]] = []

    def embed_documents(self, texts):
        self.seen.append(list(texts))
        return super().embed_documents(texts)


def test_known_texts_are_served_and_only_the_rest_is_embedded():
    inner = Recording()
    known = ["alpha beta", "gamma"]
    primed = PrefetchedEmbedder(inner, known, HashEmbedder().embed_documents(known))
    out = primed.embed_documents(["gamma", "delta", "alpha beta", "delta"])
    assert inner.seen == [["delta"]]  # once, though asked twice
    np.testing.assert_array_equal(
        out, HashEmbedder().embed_documents(["gamma", "delta", "alpha beta", "delta"])
    )
    assert primed.embed_documents([]).shape == (0, 384)
    np.testing.assert_array_equal(primed.embed_query("gamma"), out[0])
    assert inner.seen == [["delta"]]
