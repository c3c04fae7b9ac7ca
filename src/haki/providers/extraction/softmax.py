"""The softmax both readers by meaning share (``meaning``, ``meaning_facts``).

A reader is one linear layer over a sentence's document vector, trained by
a script under ``scripts/`` and shipped as JSON (its classes, weights, bias
and the embedding space it was trained in). A sentence takes its most
probable class only when that probability reaches the class's threshold;
a class without a threshold (``other``, a one-off ``request``) is never
read. The reader runs only on vectors of its own space (``in_space``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

if TYPE_CHECKING:
    import numpy as np

R = TypeVar("R", bound="SoftmaxReader")


@dataclass(frozen=True)
class SoftmaxReader:
    """Weights over one space; a subclass names its ``labels`` and their ``thresholds``."""

    weights: np.ndarray  # (labels, dim)
    bias: np.ndarray
    space: tuple[Any, ...]

    labels: ClassVar[tuple[str, ...]] = ()
    thresholds: ClassVar[Mapping[str, float]] = {}

    def probabilities(self, vectors: np.ndarray) -> np.ndarray:
        import numpy as np

        logits = vectors.astype(np.float64) @ self.weights.T + self.bias
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        out: np.ndarray = p / p.sum(axis=1, keepdims=True)
        return out

    def classes(self, vectors: np.ndarray) -> list[str | None]:
        """Each vector's class, or ``None`` when it is not a read class at its threshold."""
        out: list[str | None] = []
        for row in self.probabilities(vectors):
            label = self.labels[int(row.argmax())]
            out.append(label if row.max() >= self.thresholds.get(label, 2.0) else None)
        return out

    @classmethod
    def load(cls: type[R], path: Path, key: str) -> R | None:
        """The reader of ``path``, or ``None`` when it is missing or its ``key`` names other labels."""
        import numpy as np

        if not path.exists():
            return None
        data = json.loads(path.read_text())
        if tuple(data[key]) != cls.labels:
            return None
        return cls(
            weights=np.array(data["weights"], dtype=np.float64),
            bias=np.array(data["bias"], dtype=np.float64),
            space=tuple(data["space"]),
        )


def in_space(reader: R | None, embedder: object) -> R | None:
    """``reader`` when ``embedder`` embeds in the space it was trained in, else ``None``."""
    space = getattr(embedder, "space", None)
    return (
        reader
        if reader is not None and space is not None and tuple(space) == reader.space
        else None
    )
