"""The provider bundle built once in the lifespan and passed to services."""

from __future__ import annotations

from dataclasses import dataclass

from ..config import Settings
from .embed import Embedder, build_embedder


@dataclass(frozen=True, slots=True)
class Providers:
    embedder: Embedder


def build_providers(settings: Settings) -> Providers:
    return Providers(embedder=build_embedder(settings))
