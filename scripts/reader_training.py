"""What the trainers of the readers by meaning share (``train_wish_reader.py``,
``train_fact_reader.py``, ``measure_effect_reader.py``).

Softmax regression, full batch, from zero weights, a fixed number of steps,
classes weighted by their inverse frequency: the same rows and vectors give
the same weights. MiniLM's unit vectors spread thin over 384 components, so
they are scaled (``SCALE``) for plain gradient steps to reach a fit; the
scale is folded into the stored weights.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

SCALE = 20.0
STEPS = 3000
RATE = 1.0
L2 = 1e-3
# How far retrained weights may stray from the shipped ones: float rounding of the vectors.
TOLERANCE = 2e-3


def jsonl(path: Path) -> list[dict[str, Any]]:
    """The rows of a JSON-lines file, blank lines skipped."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def softmax(logits: np.ndarray) -> np.ndarray:
    """Each row's probabilities."""
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    out: np.ndarray = p / p.sum(axis=1, keepdims=True)
    return out


def train(x: np.ndarray, y: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Weights (dim, k) and bias (k) of a softmax over ``k`` classes fitted to ``x``, ``y``."""
    n = len(y)
    onehot = np.eye(k)[y]
    counts = onehot.sum(axis=0)
    weight = (n / (k * np.maximum(counts, 1)))[y][:, None]
    w, b = np.zeros((x.shape[1], k)), np.zeros(k)
    for _ in range(STEPS):
        logits = x @ w + b
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        grad = (p - onehot) * weight / n
        w -= RATE * (x.T @ grad + L2 * w)
        b -= RATE * grad.sum(axis=0)
    return w, b


def compare(model: dict[str, Any], shipped: dict[str, Any], labels: str) -> tuple[float, bool]:
    """The largest drift of the weights and bias from the shipped ones, and whether the
    model reproduces them: same ``labels`` and rows per class, drift within ``TOLERANCE``."""
    drift = max(
        float(np.abs(np.array(model[k]) - np.array(shipped[k])).max()) for k in ("weights", "bias")
    )
    same = model[labels] == shipped[labels] and model["rows"] == shipped["rows"]
    return drift, same and drift <= TOLERANCE
