"""Documents batched by token count on the per-row int8 model (``embed_rows``)."""

import numpy as np
import pytest

from haki.providers import embed_rows
from haki.providers.embed import LocalEmbedder
from haki.providers.embed_rows import PROBES, RUN_ROWS, RUN_TOKENS, runs

# Turns of a conversation: several share a token count, some have none.
TEXTS = [
    "Okay, got it.",
    "Sounds good to me.",
    "Haha, yes!",
    "Wow, really?",
    "Long day today.",
    "Good morning!",
    "Thanks, that helps a lot.",
    "Right, that makes sense.",
    "I moved to Lisbon last year.",
    "I work as a nurse at Acme.",
    "My cat Miso hates the rain.",
    "We plan to repaint the kitchen in March.",
    "I really don't like olives, never have.",
    "Je préfère le thé au café, surtout le matin avant le travail.",
    "Wow!!! The deploy finally worked -- ship it?! (v2.3.1, 100% green)",
    "ok",
    "no",
    "fine",
]


@pytest.fixture(scope="module")
def fast(tmp_path_factory) -> LocalEmbedder:
    embedder = LocalEmbedder(fast_documents=True, model_cache=tmp_path_factory.mktemp("models"))
    embedder._load_int8_session()
    return embedder


def token_rows(embedder: LocalEmbedder, texts: list[str]) -> list[list[int]]:
    return [e.ids for e in embedder._loaded_tokenizer().encode_batch(texts)]


def alone(embedder: LocalEmbedder, texts: list[str]) -> np.ndarray:
    """Each text in a run of its own on the per-tensor int8 graph."""
    session = embedder._int8_session
    return np.concatenate([embedder._run(session, [r]) for r in token_rows(embedder, texts)])


def test_runs_group_one_length_and_put_the_costliest_first():
    lengths = [5, 7, 5, 9, 7, 5, 3]
    assert runs(lengths) == [[0, 2, 5], [1, 4], [3], [6]]
    # Ties of cost go by first index: the same input always gives the same runs.
    assert runs([4, 2, 2, 4]) == [[0, 3], [1, 2]]


def test_runs_are_cut_by_rows_and_tokens():
    many_short = runs([10] * (RUN_ROWS + 5))
    assert [len(r) for r in many_short] == [RUN_ROWS, 5]
    long_rows = runs([200] * 25)
    assert all(len(r) * 200 <= RUN_TOKENS for r in long_rows)
    assert sorted(i for r in long_rows for i in r) == list(range(25))


def test_the_probes_hold_runs_to_check(fast: LocalEmbedder):
    probe_runs = runs([len(r) for r in token_rows(fast, list(PROBES))])
    assert sum(len(r) >= 2 for r in probe_runs) == 3


def test_batched_rows_get_their_alone_vectors_bit_for_bit(fast: LocalEmbedder):
    assert fast._rows_session is not None
    lengths = [len(r) for r in token_rows(fast, TEXTS)]
    assert any(len(r) >= 3 for r in runs(lengths))  # the batched path really runs
    fast._documents.clear()
    np.testing.assert_array_equal(fast.embed_documents(TEXTS), alone(fast, TEXTS))
    # Other companions, another order: the same vectors.
    fast._documents.clear()
    np.testing.assert_array_equal(fast.embed_documents(TEXTS[::-1]), alone(fast, TEXTS[::-1]))


def test_a_batch_of_one_length_on_the_per_row_model(fast: LocalEmbedder):
    rows = token_rows(fast, TEXTS)
    by_length: dict[int, list[int]] = {}
    for i, r in enumerate(rows):
        by_length.setdefault(len(r), []).append(i)
    shared = max(by_length.values(), key=len)
    together = fast._run(fast._rows_session, [rows[i] for i in shared])
    np.testing.assert_array_equal(together, alone(fast, [TEXTS[i] for i in shared]))
    # The per-tensor graph on the same batch gives other vectors: one scale
    # over the whole batch is what made documents run one text per call.
    ids = np.asarray([rows[i] for i in shared], dtype=np.int64)
    (hidden,) = fast._int8_session.run(None, {"input_ids": ids, "token_type_ids": 0 * ids})
    one_scale = hidden.mean(axis=1)
    one_scale /= np.linalg.norm(one_scale, axis=1, keepdims=True)
    assert np.abs(one_scale - together).max() > 1e-4


def test_mixed_lengths_are_refused_by_the_per_row_model(fast: LocalEmbedder):
    rows = token_rows(fast, ["ok", "Sounds good to me."])
    with pytest.raises(ValueError, match="one token count only"):
        fast._run(fast._rows_session, rows)


def test_a_disagreeing_per_row_model_is_not_used(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(embed_rows, "agrees", lambda *args: False)
    embedder = LocalEmbedder(fast_documents=True, model_cache=tmp_path)
    got = embedder.embed_documents(TEXTS)
    assert embedder._rows_session is None
    assert "per-row int8 model differs" in caplog.text
    np.testing.assert_array_equal(got, alone(embedder, TEXTS))


def test_queries_alone_do_not_build_the_per_row_model(tmp_path):
    embedder = LocalEmbedder(fast_documents=False, model_cache=tmp_path)
    embedder.embed_query("Where does the user live?")
    assert embedder._rows_session is None
    assert not list(tmp_path.glob("*rows*"))
