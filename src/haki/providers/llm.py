"""An OpenAI-compatible ``/chat/completions`` client that answers in JSON.

Transient failures (connection errors, timeouts, 429, 5xx) are retried with
the shared jittered exponential backoff (``haki.backoff``); a 429's ``Retry-After`` (seconds or an
HTTP date) is honoured, capped at ``MAX_RETRY_AFTER_S``. Anything else, or
the last failure, becomes ``ProviderError``: this module is the one boundary
where httpx exceptions are translated.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from ..backoff import backoff_s
from ..config import Settings
from ..errors import ProviderError

BACKOFF_BASE_S = 0.5
BACKOFF_MAX_S = 20.0
MAX_RETRY_AFTER_S = 60.0
RETRYABLE_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})

Sleep = Callable[[float], Awaitable[None]]


def retry_after_s(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header, or None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.replace(".", "", 1).isdigit():
        return min(float(value), MAX_RETRY_AFTER_S)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    delta = (when - (now or datetime.now(UTC))).total_seconds()
    return min(max(delta, 0.0), MAX_RETRY_AFTER_S)


class ChatClient:
    """One endpoint, one model; ``complete_json`` returns the parsed JSON object."""

    def __init__(
        self,
        base_url: str,
        *,
        model: str,
        api_key: str | None = None,
        timeout_s: float = 30.0,
        max_retries: int = 3,
        sleep: Sleep = asyncio.sleep,
    ):
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.max_retries = max_retries
        self._sleep = sleep
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx.AsyncClient(timeout=timeout_s, headers=headers)

    @classmethod
    def from_settings(cls, settings: Settings) -> ChatClient:
        if not settings.llm_base_url:
            raise ProviderError("HAKI_LLM_BASE_URL is not set")
        return cls(
            settings.llm_base_url,
            model=settings.llm_model,
            api_key=settings.llm_api_key,
            timeout_s=settings.llm_timeout_s,
            max_retries=settings.llm_max_retries,
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _post(self, body: dict[str, Any]) -> httpx.Response:
        last = "no attempt made"
        for attempt in range(self.max_retries + 1):
            wait: float | None = None
            try:
                response = await self._http.post(self.url, json=body)
            except httpx.TimeoutException:
                last = "timed out"
            except httpx.TransportError as exc:
                last = f"connection failed ({type(exc).__name__})"
            else:
                if response.status_code < 400:
                    return response
                last = f"HTTP {response.status_code}"
                if response.status_code not in RETRYABLE_STATUS:
                    raise ProviderError(f"LLM endpoint answered {last}: {response.text[:200]}")
                if response.status_code == 429:
                    wait = retry_after_s(response.headers.get("retry-after"))
            if attempt < self.max_retries:
                await self._sleep(
                    wait
                    if wait is not None
                    else backoff_s(attempt, base_s=BACKOFF_BASE_S, max_s=BACKOFF_MAX_S)
                )
        raise ProviderError(f"LLM endpoint failed after {self.max_retries + 1} attempts: {last}")

    async def complete_json(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        body = {
            "model": self.model,
            "messages": messages,
            "temperature": 0,
            "response_format": {"type": "json_object"},
        }
        response = await self._post(body)
        try:
            content = response.json()["choices"][0]["message"]["content"]
            parsed = json.loads(content)
        except (ValueError, KeyError, IndexError, TypeError, RecursionError) as exc:
            raise ProviderError(
                f"LLM answer is not the expected JSON ({type(exc).__name__})"
            ) from exc
        if not isinstance(parsed, dict):
            raise ProviderError("LLM answer is JSON but not an object")
        return parsed
