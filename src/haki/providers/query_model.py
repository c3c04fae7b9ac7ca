"""The query encoder: the same MiniLM, with int8 activations as well as weights.

The packaged model stores its weights in int8 but computes in float32. For
one short query that is pure arithmetic on the critical path of every
context call. Quantising the activations too (onnxruntime's dynamic int8
quantisation, per-channel weights) runs a query in about half the time on
this machine's AVX-512 VNNI cores, and keeps its vector close to the float
one (cosine ≥ 0.98 on the reference sentences).

The model serves queries and, by default, documents. Dynamic quantisation
takes one scale per tensor, so a row's vector would depend on the other rows
of its batch; every text is therefore embedded alone (a query always is,
documents through ``LocalEmbedder._infer_alone``), or with texts of its
token count on the variant quantised per row (``query_rows``), which gives
it the same vector; its vector depends on its text only. On LoCoMo,
ranking with these query
vectors against the documents' vectors matched the float queries' recall
within 0.3 point (docs/retrieval.md).

The model is derived from the installed package, never downloaded: constant
folding turns the packaged graph into float32, then it is quantised. It is
written once per source model and onnxruntime version into ``cache_dir``
(about 2 s to build, 22 MB), or built in memory when there is none.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from pathlib import Path

from .query_rows import ROWS_VERSION


def _key(source: Path) -> str:
    import onnxruntime

    from .query_graph import GRAPH_VERSION

    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    return f"{digest}-ort{onnxruntime.__version__}-g{GRAPH_VERSION}"


class _QuietAdvice(logging.Filter):
    """Drops the quantiser's chatter (it logs through the root logger: one line per
    tensor, and generic advice to pre-process image models); warnings still pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return False
        return "pre-processing before quantization" not in record.getMessage()


def _rewrite(path: Path, *, rows: bool) -> None:
    import onnx

    from .query_graph import rewrite
    from .query_rows import per_row_quantisation

    model = onnx.load(str(path))
    rewrite(model)
    if rows:
        per_row_quantisation(model)
    onnx.save(model, str(path))


def _build(source: Path, target: Path, *, rewritten: bool = True, rows: bool = False) -> None:
    """``rewritten``: apply ``query_graph`` (False only to compare against it);
    ``rows``: then ``query_rows`` (one activation scale per batch row)."""
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        folded = Path(tmp) / "float32.onnx"
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        opts.optimized_model_filepath = str(folded)
        ort.InferenceSession(str(source), opts, providers=["CPUExecutionProvider"])
        built = Path(tmp) / "query.onnx"
        # Only matrix products with a constant (weight) operand: quantising
        # the attention products as well cost fidelity for little speed.
        quiet = _QuietAdvice()
        logging.getLogger().addFilter(quiet)
        try:
            quantize_dynamic(
                folded,
                built,
                weight_type=QuantType.QInt8,
                per_channel=True,
                extra_options={"MatMulConstBOnly": True},
            )
        finally:
            logging.getLogger().removeFilter(quiet)
        if rewritten:
            _rewrite(built, rows=rows)
        os.replace(built, target)  # atomic: a concurrent builder loses nothing


def query_model(
    source: Path, cache_dir: Path | None, *, rewritten: bool = True, rows: bool = False
) -> Path | bytes:
    """The query model for ``source``: a cached file, or the model's bytes
    (``rewritten=False``: in memory, the graph before ``query_graph``, to
    compare against). ``rows``: its variant quantised per batch row
    (``query_rows``), which batches texts of one token count."""
    if cache_dir is None or not rewritten:
        with tempfile.TemporaryDirectory() as tmp:
            target = Path(tmp) / "query.onnx"
            _build(source, target, rewritten=rewritten, rows=rows)
            return target.read_bytes()
    cache_dir.mkdir(parents=True, exist_ok=True)
    name = (
        f"minilm-query-int8-rows-{_key(source)}-r{ROWS_VERSION}"
        if rows
        else (f"minilm-query-int8-{_key(source)}")
    )
    target = cache_dir / f"{name}.onnx"
    if not target.exists():
        _build(source, target, rows=rows)
    return target
