"""Documents on the int8-activation model (``LocalEmbedder(fast_documents=True)``)."""

import json
from pathlib import Path

import numpy as np
import pytest

from haki.config import Settings
from haki.providers.embed import LocalEmbedder
from haki.providers.embedders import build_embedder

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "reference_embeddings.json"
TEXTS = [
    "ok",
    "I moved from Paris to Lyon last spring.",
    "Je préfère le thé au café, surtout le matin avant le travail.",
    "Wow!!! The deploy finally worked -- ship it?! (v2.3.1, 100% green)",
    "My sister Anna starts her new job at the hospital next Monday.",
]


@pytest.fixture(scope="module")
def fast(tmp_path_factory) -> LocalEmbedder:
    return LocalEmbedder(fast_documents=True, model_cache=tmp_path_factory.mktemp("models"))


@pytest.fixture(scope="module")
def packaged() -> LocalEmbedder:
    return LocalEmbedder(fast_documents=False)


def uncached(embedder: LocalEmbedder, texts: list[str]) -> np.ndarray:
    embedder._documents.clear()
    return embedder.embed_documents(texts)


def test_a_text_gets_the_same_vector_whatever_its_batch(fast: LocalEmbedder):
    alone = np.concatenate([uncached(fast, [t]) for t in TEXTS])
    together = uncached(fast, TEXTS)
    # Other companions, another order, more rows than threads, a repeat.
    companions = ["fine", "See you at 7 tomorrow, then.", "no", "The invoice is overdue again."]
    mixed = uncached(fast, [*companions[:2], *TEXTS[::-1], *companions[2:], TEXTS[1]])
    np.testing.assert_array_equal(together, alone)
    np.testing.assert_array_equal(mixed[2:7], alone[::-1])
    np.testing.assert_array_equal(mixed[-1], alone[1])


def test_one_text_per_call_is_what_makes_it_batch_independent(fast: LocalEmbedder):
    # The int8 model scales a call's activations by their range over the
    # whole call: two texts in one call get vectors that depend on each other.
    # Its graph without the mask (query_graph) refuses them; the graph before
    # that rewrite shows why one text per call matters.
    import onnxruntime as ort

    from haki.providers.embed import _session, model_files
    from haki.providers.query_model import query_model

    source, _ = model_files()
    unrewritten = _session(
        query_model(source, None, rewritten=False), 1, ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    )
    ids = [e.ids for e in fast._loaded_tokenizer().encode_batch(TEXTS[2:4])]
    together = fast._run(unrewritten, ids)
    alone = np.concatenate([fast._run(unrewritten, [r]) for r in ids])
    assert not np.array_equal(together, alone)
    with pytest.raises(ValueError, match="one text per run"):
        fast._run(fast._load_int8_session(), ids)


def test_fast_documents_stay_close_to_the_packaged_and_the_reference_vectors(
    fast: LocalEmbedder, packaged: LocalEmbedder
):
    reference = json.loads(FIXTURE.read_text())
    sentences = reference["sentences"] + TEXTS
    got = uncached(fast, sentences)
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    reference_packaged = packaged.embed_documents(sentences)
    assert ((got * reference_packaged).sum(axis=1)).min() >= 0.96
    assert not np.allclose(got, reference_packaged, atol=1e-4)  # the int8 model really is in use
    want = np.asarray(reference["vectors"], dtype=np.float32)
    cosines = (got[: len(want)] * want).sum(axis=1) / np.linalg.norm(want, axis=1)
    assert cosines.min() >= 0.96, cosines
    # A query and a document of the same text now share one model and one vector.
    np.testing.assert_array_equal(fast.embed_query(TEXTS[1]), got[len(want) + 1])


def test_fast_documents_fall_back_to_the_packaged_model(monkeypatch, caplog, packaged):
    import haki.providers.query_model as qm

    def broken(source, cache_dir, **options):
        raise ImportError("onnx is not installed")

    monkeypatch.setattr(qm, "query_model", broken)
    embedder = LocalEmbedder(fast_documents=True)
    np.testing.assert_allclose(
        embedder.embed_documents(TEXTS), packaged.embed_documents(TEXTS), atol=1e-4
    )
    assert "fast int8 model unavailable (onnx is not installed)" in caplog.text


def test_the_setting_selects_the_document_model(tmp_path):
    default = build_embedder(Settings(data_dir=tmp_path))
    off = build_embedder(Settings(data_dir=tmp_path, embed_fast_documents=False))
    assert isinstance(off, LocalEmbedder) and isinstance(default, LocalEmbedder)
    assert default.name == "local:all-MiniLM-L6-v2-int8+int8-queries+int8-documents"
    assert not off.name.endswith("+int8-documents")
    # One embedding space either way: a database embedded by one keeps
    # answering under the other (tests/integration/embeddings/test_int8_documents.py).
    assert default.space == off.space == ("local", "all-MiniLM-L6-v2", 384)


def test_the_int8_build_is_marked_tried_only_once_its_session_is_in_place(tmp_path, monkeypatch):
    # ``_infer`` reads the int8 session without the lock once the build is
    # marked tried: marked any earlier, a batch embedded during the build
    # would run on the packaged model and its vectors would stay cached.
    from haki.providers import embed

    embedder = LocalEmbedder(fast_documents=True, model_cache=tmp_path)
    embedder._load()
    tried_while_building = []
    real = embed._session

    def watched(model, threads, level):
        tried_while_building.append(embedder._int8_tried)
        return real(model, threads, level)

    monkeypatch.setattr(embed, "_session", watched)
    session = embedder._load_int8_session()
    # The int8 session, then its per-row variant (embed_rows): both in place
    # before the build is marked tried.
    assert tried_while_building == [False, False]
    assert session is not None and embedder._int8_tried
    assert embedder._rows_session is not None
