"""Providers: embedders and LLM clients, bundled once and passed down."""

from .bundle import Providers, build_providers
from .embed import Embedder, HashEmbedder, LocalEmbedder
from .embedders import build_embedder

__all__ = [
    "Embedder",
    "HashEmbedder",
    "LocalEmbedder",
    "Providers",
    "build_embedder",
    "build_providers",
]
