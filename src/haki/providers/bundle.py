"""The provider bundle built once in the lifespan and passed to services."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..config import Settings
from .embed import Embedder, build_embedder

if TYPE_CHECKING:
    from ..consolidator.extract import Extractor


def _rules_extractor() -> Extractor:
    from ..consolidator.extract import RulesExtractor

    return RulesExtractor()


@dataclass(frozen=True, slots=True)
class Providers:
    embedder: Embedder
    # Defaults to the offline rules extractor, so a bundle built with only an
    # embedder (tests, tools) still consolidates.
    extractor: Extractor = field(default_factory=_rules_extractor)


def build_providers(settings: Settings) -> Providers:
    from ..consolidator.extract import build_extractor

    return Providers(embedder=build_embedder(settings), extractor=build_extractor(settings))
