"""What the tests of the readers by meaning share: an embedder whose vectors say the class,
a reader that reads each class from its own axis, and a message event."""

from __future__ import annotations

import importlib.util
import uuid
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import TypeVar

import numpy as np

from haki.providers.embed import MINILM_SPACE
from haki.providers.extraction.softmax import SoftmaxReader
from haki.providers.extraction.types import EventRow

R = TypeVar("R", bound=SoftmaxReader)


class AxisSpace:
    """An embedder in the readers' space whose vectors say the class by their first axes.

    ``said`` maps a sentence to its class among ``labels``; any other sentence is ``other``.
    """

    name = "fake-minilm"
    dim = 384
    space = MINILM_SPACE

    def __init__(self, labels: Sequence[str], said: dict[str, str]) -> None:
        self.labels = tuple(labels)
        self.said = said
        self.calls: list[list[str]] = []

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row, self.labels.index(self.said.get(text, "other"))] = 1.0
        return out

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]


def axis_reader(kind: type[R]) -> R:
    """Class i is read from axis i with a margin of 10 logits: probability ~1."""
    n = len(kind.labels)
    weights = np.zeros((n, 384))
    for i in range(n):
        weights[i, i] = 10.0
    return kind(weights=weights, bias=np.zeros(n), space=tuple(MINILM_SPACE))


def event(text: str, occurred_at: datetime, speaker: str | None = None) -> EventRow:
    """A user's message event, said by ``speaker`` when one is named."""
    payload = {"text": text} | ({"speaker": speaker} if speaker else {})
    return EventRow(
        id=uuid.uuid4(),
        org_id="o",
        project_id="p",
        subject_type="user",
        subject_id="u",
        kind="message",
        occurred_at=occurred_at,
        payload=payload,
        origin_trust="trusted",
    )


def training_script(name: str) -> ModuleType:
    """``scripts/<name>.py`` as a module (the scripts are no package)."""
    path = Path(__file__).resolve().parents[2] / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
