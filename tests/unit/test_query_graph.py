"""query_graph: the rewritten int8 graph gives exactly the vectors of the
graph it was rewritten from, on texts of every length the embedder runs."""

import random
from pathlib import Path

import numpy as np
import pytest

from haki.providers import query_graph
from haki.providers.embed import MAX_TOKENS, QUERY_THREADS, LocalEmbedder, _session, model_files
from haki.providers.query_model import _build, _key, query_model

SENTENCES = [
    "",
    "ok",
    "See you at 7 tomorrow, then.",
    "I moved to Lyon last year and my sister still lives in Denver with her two kids.",
    "Caroline: I went to the LGBTQ support group yesterday and it was so powerful! "
    "The stories people shared about their transitions made me feel less alone.",
]


@pytest.fixture(scope="module")
def sessions(tmp_path_factory) -> tuple[object, object]:
    import onnxruntime as ort

    source, _ = model_files()
    where = tmp_path_factory.mktemp("graphs")
    old, new = where / "old.onnx", where / "new.onnx"
    _build(source, old, rewritten=False)
    _build(source, new)
    level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return _session(old, QUERY_THREADS, level), _session(new, QUERY_THREADS, level)


def token_rows() -> list[list[int]]:
    """Token-id rows from 1 token to the position table's 512, via the tokenizer's cap."""
    embedder = LocalEmbedder()
    tokenizer = embedder._loaded_tokenizer()
    rows = [[101], [101, 102]] + [e.ids for e in tokenizer.encode_batch(SENTENCES)]
    long = tokenizer.encode(" ".join(SENTENCES[1:] * 20)).ids
    assert len(long) == MAX_TOKENS  # truncated at the embedder's cap
    words = random.Random(47).choices(range(1000, 30000), k=510)
    rows += [long, [101, *words, 102]]
    return rows


def test_the_rewritten_graph_gives_bit_identical_hidden_states(sessions):
    old, new = sessions
    rows = token_rows()
    assert sorted({len(r) for r in rows})[:2] == [1, 2] and max(len(r) for r in rows) == 512
    for row in rows:
        ids = np.asarray([row], dtype=np.int64)
        types = np.zeros_like(ids)
        (want,) = old.run(
            None, {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": types}
        )
        (got,) = new.run(None, {"input_ids": ids, "token_type_ids": types})
        assert got.shape == want.shape == (1, len(row), 384)
        np.testing.assert_array_equal(got, want)


def test_every_pass_applies_to_each_of_the_six_layers(tmp_path):
    import onnx

    source, _ = model_files()
    _build(source, tmp_path / "old.onnx", rewritten=False)
    model = onnx.load(str(tmp_path / "old.onnx"))
    before = len(model.graph.node)
    done = query_graph.rewrite(model)
    assert done == {
        "drop_attention_mask": 6,
        "merge_projections": 6,
        "transpose_keys": 6,
        "constant_shapes": 24,
        "float_positions": 1,
    }
    assert [i.name for i in model.graph.input] == ["input_ids", "token_type_ids"]
    ops = [n.op_type for n in model.graph.node]
    # Per layer: Q+K+V, output, two feed-forward (was Q, K, V apart: 6 x 6).
    assert ops.count("MatMulInteger") == 6 * 4
    assert "IsNaN" not in ops and "Where" not in ops
    assert len(ops) < before - 100, (len(ops), before)
    onnx.checker.check_model(model)


def test_the_cache_key_names_the_graph_version(monkeypatch, tmp_path):
    source, _ = model_files()
    first = query_model(source, tmp_path)
    assert isinstance(first, Path) and f"-g{query_graph.GRAPH_VERSION}" in first.name
    monkeypatch.setattr(query_graph, "GRAPH_VERSION", query_graph.GRAPH_VERSION + 1)
    assert _key(source) not in first.name
    second = query_model(source, tmp_path)  # not the older rewrite's file
    assert second != first and sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [first.name, second.name]
    )


def test_the_maskless_model_refuses_a_padded_batch():
    embedder = LocalEmbedder()
    session = embedder._load_int8_session()
    rows = [e.ids for e in embedder._loaded_tokenizer().encode_batch(SENTENCES[2:4])]
    with pytest.raises(ValueError, match="one text per run, not 2"):
        embedder._run(session, rows)
    alone = embedder._run(session, [rows[0]])
    np.testing.assert_array_equal(alone[0], embedder.embed_query(SENTENCES[2]))
