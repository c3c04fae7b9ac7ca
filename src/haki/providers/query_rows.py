"""The int8 encoder with one activation scale per text: rows of a batch apart.

``query_model`` quantises activations dynamically, one scale and zero point
per tensor (``DynamicQuantizeLinear``): in a batch, a row's vector would
depend on the other rows, so that graph embeds one text per run. This pass
computes each quantisation's scale and zero point per batch row instead, with
the formula that operator uses over the whole tensor:

    lo = min(0, min(x[b])), hi = max(0, max(x[b])), scale = (hi - lo) / 255
    zero = round_half_even(clip(-lo / scale, 0, 255))
    q = QuantizeLinear(x, scale, zero, axis=0)

onnxruntime's ``MatMulInteger`` takes one zero point for its whole first
operand, so the product runs without one and each row's zero point is taken
off in int32 afterwards: ``sum_k (q - z)(w - wz) = sum_k q (w - wz) -
z * sum_k (w - wz)``, exact in integers (a sum stays below 2^31: at most
1536 x 255 x 255). The rescaling that follows (``Mul`` by scale x weight
scale, ``Add`` bias) is elementwise and takes the row's scale.

A row of an unpadded batch then computes what it computes alone, and what
the per-tensor graph computes for it alone, bit for bit: that graph's fused
kernel (``DynamicQuantizeMatMul``) rounds as Cast, Mul, Add do, provided the
bias Add stays out of the SkipLayerNormalization after it (``_bias_apart``).
``LocalEmbedder`` batches texts of the same token count only (a padded
position would enter its row's minimum and maximum), and checks the two
graphs agree before it uses this one (``embed_rows``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .query_graph import _Graph, _insert_before

if TYPE_CHECKING:
    import onnx

# Part of the cached model's file name, beside query_graph.GRAPH_VERSION: a
# change to this pass bumps it, so a model it rewrote before is rebuilt.
ROWS_VERSION = 1


def per_row_quantisation(model: onnx.ModelProto) -> int:
    """Rewrite every ``DynamicQuantizeLinear`` of ``model`` (in place) to
    quantise per batch row; returns how many were rewritten."""
    g = _Graph(model)
    dqs = [n for n in g.graph.node if n.op_type == "DynamicQuantizeLinear"]
    if not dqs:
        return 0
    import numpy as np

    zero = g.constant("rows_zero", np.float32(0))
    top = g.constant("rows_top", np.float32(255))
    flat = g.constant("rows_flat", np.asarray([-1], dtype=np.int64))
    for k, dq in enumerate(dqs):
        _rewrite_one(g, dq, f"rows{k}", zero, top, flat)
    g.prune()  # the biases' 1-D originals
    return len(dqs)


def _rewrite_one(g: _Graph, dq: onnx.NodeProto, p: str, zero: str, top: str, flat: str) -> None:
    from onnx import TensorProto, helper

    x = dq.input[0]
    quantised, scale, zero_point = dq.output
    users = g.consumers.get(quantised, [])
    if any(u.op_type != "MatMulInteger" or u.input[2] != zero_point for u in users):
        raise ValueError(f"{quantised} has a reader other than an integer MatMul")
    scale_users = g.consumers.get(scale, [])
    if any(u.op_type != "Mul" for u in scale_users):
        raise ValueError(f"{scale} has a reader other than a Mul")
    node = helper.make_node
    quantise = [
        node("ReduceMin", [x], [f"{p}_min"], axes=[1, 2], keepdims=1),
        node("ReduceMax", [x], [f"{p}_max"], axes=[1, 2], keepdims=1),
        node("Min", [f"{p}_min", zero], [f"{p}_lo"]),
        node("Max", [f"{p}_max", zero], [f"{p}_hi"]),
        node("Sub", [f"{p}_hi", f"{p}_lo"], [f"{p}_range"]),
        node("Div", [f"{p}_range", top], [scale]),
        node("Div", [f"{p}_lo", scale], [f"{p}_lo_steps"]),
        node("Neg", [f"{p}_lo_steps"], [f"{p}_zero_at"]),
        node("Clip", [f"{p}_zero_at", zero, top], [f"{p}_zero_clipped"]),
        node("Round", [f"{p}_zero_clipped"], [f"{p}_zero_float"]),
        node("Cast", [f"{p}_zero_float"], [zero_point], to=TensorProto.UINT8),
        node("Cast", [f"{p}_zero_float"], [f"{p}_zero_int"], to=TensorProto.INT32),
        node("Reshape", [scale, flat], [f"{p}_scale_rows"]),
        node("Reshape", [zero_point, flat], [f"{p}_zero_rows"]),
        node("QuantizeLinear", [x, f"{p}_scale_rows", f"{p}_zero_rows"], [quantised], axis=0),
    ]
    _insert_before(g, dq, quantise)
    g.graph.node.remove(dq)
    for j, matmul in enumerate(users):
        _bias_apart(g, _zero_point_after(g, matmul, f"{p}_zero_int", f"{p}_{j}"))
    # Scale and zero point were scalars; now one per row ([batch, 1, 1]), and
    # so are the products of the scale with the weights' scales.
    _forget_shapes(g, {scale, zero_point, *(o for u in scale_users for o in u.output)})
    g.reindex()


def _zero_point_after(g: _Graph, matmul: onnx.NodeProto, zero_int: str, p: str) -> str:
    """``MatMulInteger(q, w, z, wz)`` -> ``MatMulInteger(q, w, -, wz) - z * colsum``;
    returns the product's name (unchanged)."""
    import numpy as np
    from onnx import helper

    weight = g.consts[matmul.input[1]].astype(np.int64)
    weight_zero = g.consts[matmul.input[3]].astype(np.int64)
    colsum = (weight - weight_zero[None, :]).sum(axis=0)
    if np.abs(colsum).max() * 255 >= 2**31 or weight.shape[0] * 255 * 255 >= 2**31:
        raise ValueError(f"{matmul.output[0]} could overflow int32")
    sums = g.constant(f"{p}_colsum", colsum.astype(np.int32))
    out = str(matmul.output[0])
    matmul.output[0] = f"{p}_raw"
    matmul.input[2] = ""
    after = [
        helper.make_node("Mul", [zero_int, sums], [f"{p}_offset"]),
        helper.make_node("Sub", [f"{p}_raw", f"{p}_offset"], [out]),
    ]
    at = list(g.graph.node).index(matmul) + 1
    for k, n in enumerate(after):
        g.graph.node.insert(at + k, n)
    return out


def _bias_apart(g: _Graph, product: str) -> None:
    """Give the bias ``Add`` after ``Cast(product) * scale`` a ``[1, 1, N]`` bias.

    The values are the same; the shape keeps onnxruntime from folding that
    Add into the SkipLayerNormalization after it (a fusion that takes a 1-D
    bias only), which would add bias and residual in another order than the
    per-tensor graph's fused product, which adds its bias first."""
    cast = g.only_consumer(product, "Cast")
    mul = cast and g.only_consumer(cast.output[0], "Mul")
    add = mul and g.only_consumer(mul.output[0], "Add")
    if mul is None or add is None:
        raise ValueError(f"no bias Add after {product}")
    k = 1 if add.input[0] == mul.output[0] else 0
    bias = g.consts[add.input[k]]
    add.input[k] = g.constant(f"{add.input[k]}_rows", bias.reshape(1, 1, -1))


def _forget_shapes(g: _Graph, names: set[str]) -> None:
    infos = g.graph.value_info
    kept = [v for v in infos if v.name not in names]
    del infos[:]
    infos.extend(kept)
