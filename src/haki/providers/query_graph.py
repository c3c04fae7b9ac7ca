"""Rewrites of the int8 query graph that leave its vectors bit-identical.

``query_model`` quantises the exported MiniLM graph as it is; that graph
still carries what one unpadded text per run does not need. Each pass here
removes work whose result is known, and nothing else, so a text's vector
stays exactly what the unrewritten graph gives (checked bit for bit by
tests/unit/test_query_graph.py on texts of 1 to 256 tokens):

- ``drop_attention_mask``: with one text per run there is no padding, so the
  mask is all ones; the chain that turns it into a score bias adds 0.0 to
  every attention score, and the NaN guard after each softmax (for rows
  masked entirely) never fires. Both go, with the ``attention_mask`` input:
  the graph then embeds one text per run only, and a padded batch cannot
  reach it by mistake (``LocalEmbedder._run`` refuses batches for it).
- ``merge_projections``: the query, key and value projections of a layer
  read the same quantised input with the same per-tensor scale, so one
  integer MatMul with their weights side by side (per-column scales and
  zero points side by side too) computes each of their columns exactly as
  before, then a Split hands the three back.
- ``transpose_keys``: the exporter transposes the keys through two
  Reshapes, two Transposes and a Shape/Gather/Slice/Concat chain; one
  Transpose moves the same values.
- ``constant_shapes``: the head reshapes read batch and length from Shape
  chains; a constant target with 0 ("keep this dimension") and -1 does the
  same for any length.
- ``float_positions``: a text's positions are always 0..n-1, so the
  position embeddings are the first n rows of their table, dequantised
  once at build time instead of gathered and dequantised on every run.

The shapes and types the exporter recorded stay in the graph (a rewritten
tensor gets those of the one it replaces): onnxruntime's fusions, such as
SkipLayerNormalization, match only where shapes are known, and a graph
without them runs other kernels with other roundings (hidden states apart
by up to 0.4 on LoCoMo turns).

Un-fusing LayerNorm was measured faster too, but moves vectors (by 8e-3) and
is left out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx

# Part of the cached model's file name: a change to any pass bumps it, so a
# model rewritten by older passes is rebuilt rather than reused.
GRAPH_VERSION = 1

MASK_INPUT = "attention_mask"


class _Graph:
    """Index of one graph: producers, consumers, constants; edits in place."""

    def __init__(self, model: onnx.ModelProto) -> None:
        from onnx import numpy_helper

        self.model = model
        self.graph = model.graph
        self.consts = {i.name: numpy_helper.to_array(i) for i in self.graph.initializer}
        self.reindex()

    def reindex(self) -> None:
        self.producer = {o: n for n in self.graph.node for o in n.output}
        self.consumers: dict[str, list[onnx.NodeProto]] = {}
        for n in self.graph.node:
            for i in n.input:
                self.consumers.setdefault(i, []).append(n)

    def source(self, name: str, op: str) -> onnx.NodeProto | None:
        node = self.producer.get(name)
        return node if node is not None and node.op_type == op else None

    def only_consumer(self, name: str, op: str) -> onnx.NodeProto | None:
        users = self.consumers.get(name, [])
        if len(users) != 1 or users[0].op_type != op:
            return None
        return users[0]

    def rename_uses(self, old: str, new: str) -> None:
        for n in self.consumers.get(old, []):
            for k, i in enumerate(n.input):
                if i == old:
                    n.input[k] = new
        for out in self.graph.output:
            if out.name == old:
                raise ValueError(f"{old} is a graph output")

    def retype(self, name: str, like: str) -> None:
        """Record for ``name`` the type and shape recorded for ``like``.

        The recorded types matter beyond checking: onnxruntime's fusions
        (SkipLayerNormalization among them) need known shapes, and without
        them it runs another graph with other roundings."""
        infos = self.graph.value_info
        kept = [v for v in infos if v.name != name]
        for v in infos:
            if v.name == like:
                copy = type(v)()
                copy.CopyFrom(v)
                copy.name = name
                kept.append(copy)
        del infos[:]
        infos.extend(kept)

    def constant(self, name: str, value: object) -> str:
        import numpy as np
        from onnx import numpy_helper

        array = np.asarray(value)
        self.graph.initializer.append(numpy_helper.from_array(array, name))
        self.consts[name] = array
        return name

    def prune(self) -> None:
        """Drop nodes no graph output needs, then unused initializers."""
        needed = {o.name for o in self.graph.output}
        keep: list[onnx.NodeProto] = []
        for n in reversed(list(self.graph.node)):
            if any(o in needed for o in n.output):
                keep.append(n)
                needed.update(i for i in n.input if i)
        keep.reverse()
        del self.graph.node[:]
        self.graph.node.extend(keep)
        unused = [i for i in self.graph.initializer if i.name not in needed]
        for i in unused:
            self.graph.initializer.remove(i)
            self.consts.pop(i.name, None)
        self.reindex()


def _depends_on(g: _Graph, root: str, *, values_only: bool = False) -> set[str]:
    """Every tensor computed from ``root`` (``values_only``: from its values,
    not through a Shape that reads only its dimensions)."""
    reached = {root}
    for n in g.graph.node:  # exported graphs are topologically sorted
        if values_only and n.op_type == "Shape":
            continue
        if any(i in reached for i in n.input):
            reached.update(n.output)
    return reached


def drop_attention_mask(g: _Graph) -> int:
    """Remove the mask's score bias and the softmax NaN guards; returns how
    many attention layers changed."""
    # The bias: computed from the mask and no other input's values (everything
    # after the first attention layer depends on the mask too, through it).
    others = [i.name for i in g.graph.input if i.name != MASK_INPUT]
    texts = set().union(*(_depends_on(g, i, values_only=True) for i in others))
    masked = _depends_on(g, MASK_INPUT) - texts
    changed = 0
    for add in [n for n in g.graph.node if n.op_type == "Add"]:
        bias = [i for i in add.input if i in masked]
        if len(bias) != 1 or len(add.input) != 2:
            continue
        scores = next(i for i in add.input if i not in masked)
        softmax = g.only_consumer(add.output[0], "Softmax")
        product = g.producer.get(scores)
        if softmax is None or product is None or product.op_type != "MatMul":
            raise ValueError(f"unexpected use of the attention mask: {add.name}")
        g.rename_uses(add.output[0], scores)
        _drop_nan_guard(g, softmax.output[0])
        changed += 1
    g.prune()
    if MASK_INPUT in g.consumers:
        raise ValueError("the attention mask is still read after the rewrite")
    inputs = [i for i in g.graph.input if i.name != MASK_INPUT]
    del g.graph.input[:]
    g.graph.input.extend(inputs)
    return changed


def _drop_nan_guard(g: _Graph, probs: str) -> None:
    """``Where(IsNaN(p), 0, p)`` after a softmax: only a fully masked row
    gives NaN there, and without a mask there is none."""
    is_nan = next((n for n in g.consumers.get(probs, []) if n.op_type == "IsNaN"), None)
    where = is_nan and g.only_consumer(is_nan.output[0], "Where")
    if where is None or where.input[2] != probs:
        raise ValueError(f"no NaN guard after the softmax giving {probs}")
    g.rename_uses(where.output[0], probs)
    g.reindex()


def merge_projections(g: _Graph) -> int:
    """One integer MatMul per layer for its query, key and value projections;
    returns how many groups were merged."""
    merged = 0
    for dq in [n for n in g.graph.node if n.op_type == "DynamicQuantizeLinear"]:
        branches = [b for b in (_branch(g, dq, m) for m in _matmuls_of(g, dq)) if b is not None]
        if len(branches) < 2:
            continue
        _merge(g, dq, branches, f"merged_{merged}")
        merged += 1
    if merged:
        g.prune()
    return merged


def _matmuls_of(g: _Graph, dq: onnx.NodeProto) -> list[onnx.NodeProto]:
    return [n for n in g.consumers.get(dq.output[0], []) if n.op_type == "MatMulInteger"]


class _Branch:
    """``Add(Mul(Cast(MatMulInteger(x, W, zx, zW)), Mul(sx, sW)), b)`` on one
    quantised input: the quantiser's pattern for a weight MatMul."""

    def __init__(
        self, matmul: onnx.NodeProto, scale: onnx.NodeProto, out: onnx.NodeProto, names: list[str]
    ) -> None:
        self.matmul, self.scale, self.out = matmul, scale, out
        self.weight, self.weight_zero, self.weight_scale, self.bias = names


def _branch(g: _Graph, dq: onnx.NodeProto, matmul: onnx.NodeProto) -> _Branch | None:
    x, x_scale, x_zero = dq.output
    if list(matmul.input[::2]) != [x, x_zero] or matmul.input[1] not in g.consts:
        return None
    cast = g.only_consumer(matmul.output[0], "Cast")
    mul = cast and g.only_consumer(cast.output[0], "Mul")
    add = mul and g.only_consumer(mul.output[0], "Add")
    if cast is None or mul is None or add is None or mul.input[0] != cast.output[0]:
        return None
    scale = g.source(mul.input[1], "Mul")
    if scale is None or scale.input[0] != x_scale or scale.input[1] not in g.consts:
        return None
    if add.input[0] != mul.output[0] or add.input[1] not in g.consts:
        return None
    names = [matmul.input[1], matmul.input[3], scale.input[1], add.input[1]]
    if any(n not in g.consts for n in names):
        return None
    return _Branch(matmul, scale, add, names)


def _merge(g: _Graph, dq: onnx.NodeProto, branches: list[_Branch], prefix: str) -> None:
    import numpy as np
    from onnx import helper

    def joined(field: str, axis: int) -> str:
        parts = [g.consts[getattr(b, field)] for b in branches]
        return g.constant(f"{prefix}_{field}", np.concatenate(parts, axis=axis))

    x, x_scale, x_zero = dq.output
    widths = [int(g.consts[b.bias].shape[0]) for b in branches]
    nodes = [
        helper.make_node("Mul", [x_scale, joined("weight_scale", 0)], [f"{prefix}_scale"]),
        helper.make_node(
            "MatMulInteger",
            [x, joined("weight", 1), x_zero, joined("weight_zero", 0)],
            [f"{prefix}_int"],
        ),
        helper.make_node("Cast", [f"{prefix}_int"], [f"{prefix}_float"], to=1),
        helper.make_node("Mul", [f"{prefix}_float", f"{prefix}_scale"], [f"{prefix}_scaled"]),
        helper.make_node("Add", [f"{prefix}_scaled", joined("bias", 0)], [f"{prefix}_out"]),
        helper.make_node(
            "Split",
            [f"{prefix}_out", g.constant(f"{prefix}_widths", np.asarray(widths, dtype=np.int64))],
            [b.out.output[0] for b in branches],
            axis=-1,
        ),
    ]
    _insert_before(g, branches[0].matmul, nodes)
    for b in branches:  # the Split now produces their outputs
        b.out.output[0] = f"{prefix}_unused_{b.out.name}"
    g.reindex()


def _insert_before(g: _Graph, anchor: onnx.NodeProto, nodes: Iterable[onnx.NodeProto]) -> None:
    at = list(g.graph.node).index(anchor)
    for k, node in enumerate(nodes):
        g.graph.node.insert(at + k, node)


def transpose_keys(g: _Graph) -> int:
    """``Reshape(Transpose(Reshape(Transpose(k, 0213)), ..), 021)`` -> one
    ``Transpose(k, 0231)``; returns how many were replaced."""
    from onnx import helper

    replaced = 0
    for first in [n for n in g.graph.node if n.op_type == "Transpose"]:
        if _perm(first) != [0, 2, 1, 3]:
            continue
        flat = g.only_consumer(first.output[0], "Reshape")
        swap = flat and g.only_consumer(flat.output[0], "Transpose")
        back = swap and g.only_consumer(swap.output[0], "Reshape")
        if flat is None or swap is None or back is None or _perm(swap) != [0, 2, 1]:
            continue
        one = helper.make_node("Transpose", [first.input[0]], [back.output[0]], perm=[0, 2, 3, 1])
        _insert_before(g, first, [one])
        back.output[0] = f"{back.output[0]}_unused"
        replaced += 1
        g.reindex()
    if replaced:
        g.prune()
    return replaced


def _perm(node: onnx.NodeProto) -> list[int]:
    from onnx import helper

    for a in node.attribute:
        if a.name == "perm":
            return [int(v) for v in helper.get_attribute_value(a)]
    return []


def constant_shapes(g: _Graph) -> int:
    """Reshape targets ``[batch, length, ...]`` read from Shape nodes become
    constants ``[0, 0, ...]`` (0 keeps the input's dimension)."""
    import numpy as np

    changed = 0
    for reshape in [n for n in g.graph.node if n.op_type == "Reshape"]:
        concat = g.source(reshape.input[1], "Concat")
        if concat is None or len(concat.input) < 3:
            continue
        lead = [_shape_dim(g, i) for i in concat.input[:2]]
        tail = [g.consts.get(i) for i in concat.input[2:]]
        if lead != [0, 1] or any(t is None or t.shape != (1,) for t in tail):
            continue
        dims = [0, 0] + [int(t[0]) for t in tail if t is not None]
        if 0 in dims[2:]:
            continue  # a literal 0 there would mean "keep" once allowzero is off
        name = f"{reshape.input[1]}_const"
        if name not in g.consts:
            g.constant(name, np.asarray(dims, dtype=np.int64))
        reshape.input[1] = name
        _set_allowzero_off(reshape)
        changed += 1
    if changed:
        g.reindex()
        g.prune()
    return changed


def _shape_dim(g: _Graph, name: str) -> int | None:
    """The axis a ``Shape(x, start=a, end=a+1)`` reads, or None."""
    from onnx import helper

    node = g.source(name, "Shape")
    if node is None:
        return None
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    start, end = attrs.get("start", 0), attrs.get("end")
    return int(start) if end == start + 1 else None


def _set_allowzero_off(node: onnx.NodeProto) -> None:
    for a in node.attribute:
        if a.name == "allowzero":
            a.i = 0


def float_positions(g: _Graph) -> int:
    """``DequantizeLinear(Gather(table, Slice(arange(512), 0, n)))`` -> a
    Slice of the table dequantised once (512 x 384 float32, 768 KB): the
    positions of a text are always 0..n-1. Same arithmetic, done at build
    time: ``(q - zero point) * scale`` in float32, as the operator does."""
    import numpy as np

    changed = 0
    for dq in [n for n in g.graph.node if n.op_type == "DequantizeLinear"]:
        gather = g.source(dq.input[0], "Gather")
        cut = gather and g.source(gather.input[1], "Slice")
        if gather is None or cut is None or gather.input[0] not in g.consts:
            continue
        ids, start, _, axes, *steps = (g.consts.get(i) for i in cut.input)
        scale, zero = (g.consts.get(i) for i in dq.input[1:3])
        if ids is None or scale is None or zero is None or scale.ndim or zero.ndim:
            continue
        if ids.shape[0] != 1 or not np.array_equal(ids[0], np.arange(ids.shape[1])):
            continue
        if start is None or axes is None or list(start) != [0] or list(axes) != [1]:
            continue
        if steps and (steps[0] is None or list(steps[0]) != [1]):
            continue
        table = g.consts[gather.input[0]].astype(np.int32) - np.int32(zero)
        floats = table.astype(np.float32) * np.float32(scale)
        name = g.constant(f"{gather.input[0]}_float", floats[None])
        cut.input[0] = name  # slice rows 0..n-1 of the float table on axis 1
        del cut.input[4:]
        g.rename_uses(dq.output[0], cut.output[0])
        g.retype(cut.output[0], like=dq.output[0])
        changed += 1
    if changed:
        g.reindex()
        g.prune()
    return changed


def rewrite(model: onnx.ModelProto) -> Counter[str]:
    """Apply every pass to ``model`` in place; how often each one applied."""
    g = _Graph(model)
    done: Counter[str] = Counter()
    passes = (
        drop_attention_mask,
        merge_projections,
        transpose_keys,
        constant_shapes,
        float_positions,
    )
    for rewrite_pass in passes:
        done[rewrite_pass.__name__] = rewrite_pass(g)
    return done
