"""Fact extractors, chosen by ``HAKI_LLM_PROVIDER``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Extractor
from .fake import FakeExtractor
from .rules import RulesExtractor

if TYPE_CHECKING:
    from ...config import Settings


def build_extractor(settings: Settings) -> Extractor:
    if settings.llm_provider == "fake":
        return FakeExtractor()
    if settings.llm_provider == "openai":
        from ..llm import ChatClient
        from .openai import OpenAIExtractor

        return OpenAIExtractor(ChatClient.from_settings(settings))
    return RulesExtractor()


__all__ = ["Extractor", "FakeExtractor", "RulesExtractor", "build_extractor"]
