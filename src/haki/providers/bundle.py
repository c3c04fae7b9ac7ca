"""The provider bundle built once in the lifespan and passed to services."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..config import Settings
from .embed import Embedder
from .embedders import build_embedder
from .extraction import Extractor, RulesExtractor, build_extractor


@dataclass(frozen=True, slots=True)
class Providers:
    embedder: Embedder
    # Defaults to the offline rules extractor, so a bundle built with only an
    # embedder (tests, tools) still consolidates.
    extractor: Extractor = field(default_factory=RulesExtractor)


def build_providers(settings: Settings) -> Providers:
    embedder = build_embedder(settings)
    return Providers(embedder=embedder, extractor=build_extractor(settings, embedder))
