"""Which embedder a process runs: built from its settings or from another process's recipe.

A recipe (``embedder_recipe``) names an embedding space without any secret;
``build_from_recipe`` adds this process's own tuning and key. Every embedder
built has a size an hnsw index serves (``check_indexed``).
"""

from __future__ import annotations

from typing import Any

from ..config import Settings
from ..errors import ConfigError
from .embed import Embedder, HashEmbedder, LocalEmbedder, SentenceTransformersEmbedder

# The vector sizes with an hnsw index (migration 0170 creates one per size).
INDEXED_DIMENSIONS = (256, 384, 512, 768, 1024, 1536)


def embedding_space(embedder: Embedder) -> tuple[str, str, int]:
    """(provider, model, dimensions): what makes two embedders' vectors comparable."""
    space: tuple[str, str, int] | None = getattr(embedder, "space", None)
    return space if space is not None else ("other", embedder.name, embedder.dim)


def embedder_recipe(embedder: Embedder) -> dict[str, Any] | None:
    """How another process builds an embedder of the same space (no secret);
    None for an embedder it cannot rebuild (a test's own)."""
    recipe: dict[str, Any] | None = getattr(embedder, "recipe", None)
    if recipe is not None:
        return recipe
    provider = embedding_space(embedder)[0]
    return {"provider": provider} if provider in ("local", "hash") else None


def endpoint_key(settings: Settings, base_url: str) -> str | None:
    """The API key this process holds for the endpoint at ``base_url``: its
    own key for its own endpoint (HAKI_EMBED_API_KEY), else the one
    HAKI_EMBED_API_KEYS names for that URL; a key is never sent to another URL."""
    url = base_url.rstrip("/")
    if (settings.embed_base_url or "").rstrip("/") == url:
        return settings.embed_api_key
    keys = {k.rstrip("/"): v for k, v in settings.embed_api_keys.items()}
    return keys.get(url)


def build_from_recipe(settings: Settings, recipe: dict[str, Any]) -> Embedder:
    """The embedder a recipe describes, with this process's own tuning and
    its key for the recipe's endpoint (``endpoint_key``)."""
    update: dict[str, Any] = {"embed_provider": recipe["provider"]}
    if recipe["provider"] == "openai":
        update |= {
            "embed_base_url": recipe["base_url"],
            "embed_model": recipe["model"],
            "embed_dimensions": recipe["dimensions"],
            "embed_query_prefix": recipe["query_prefix"],
            "embed_passage_prefix": recipe["passage_prefix"],
            "embed_input_type": recipe["input_type"],
            "embed_api_key": endpoint_key(settings, recipe["base_url"]),
        }
    return build_embedder(settings.model_copy(update=update))


def build_embedder(settings: Settings) -> Embedder:
    if settings.embed_provider == "hash":
        embedder: Embedder = HashEmbedder()
    elif settings.embed_provider == "sentence-transformers":
        embedder = SentenceTransformersEmbedder()
    elif settings.embed_provider == "openai":
        from .embed_openai import OpenAIEmbedder

        embedder = OpenAIEmbedder.from_settings(settings)
    else:
        embedder = LocalEmbedder(
            threads=settings.embed_threads,
            batch_tokens=settings.embed_batch_tokens,
            fast_queries=settings.embed_fast_queries,
            fast_documents=settings.embed_fast_documents,
            model_cache=settings.data_dir / "models",
        )
    check_indexed(embedder.dim)
    return embedder


def check_indexed(dimensions: int) -> None:
    """Refuse a size no hnsw index serves (migration 0170)."""
    if dimensions not in INDEXED_DIMENSIONS:
        sizes = ", ".join(map(str, INDEXED_DIMENSIONS))
        raise ConfigError(
            f"embeddings of {dimensions} dimensions have no index; the indexed sizes are "
            f"{sizes} (models with Matryoshka dimensions, such as text-embedding-3-*, take "
            "HAKI_EMBED_DIMENSIONS set to one of them)",
            field="HAKI_EMBED_DIMENSIONS",
        )
