"""Fact extractors, chosen by ``HAKI_LLM_PROVIDER``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Extractor
from .by_meaning import RulesExtractor
from .fake import FakeExtractor

if TYPE_CHECKING:
    from ...config import Settings
    from ..embed import Embedder


def build_extractor(settings: Settings, embedder: Embedder | None = None) -> Extractor:
    """The extractor ``HAKI_LLM_PROVIDER`` names; the rules read wishes by meaning with ``embedder``."""
    if settings.llm_provider == "fake":
        return FakeExtractor()
    if settings.llm_provider == "openai":
        from ..llm import ChatClient
        from .openai import OpenAIExtractor

        return OpenAIExtractor(ChatClient.from_settings(settings))
    return RulesExtractor(embedder)


__all__ = ["Extractor", "FakeExtractor", "RulesExtractor", "build_extractor"]
