"""Settings, retry policy and error reading shared by the sync and async clients.

Only 429 and 503 are retried (the server says "later", usually with a
``Retry-After``); any other 4xx is the caller's mistake and is raised at
once. A transport failure is retried only for calls that are safe to send
twice (``Call.replayable``).
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from .errors import HakiApiError, HakiConnectionError, error_class

DEFAULT_URL = "http://127.0.0.1:8100"
RETRY_STATUS = frozenset({429, 503})


def resolve_url(base_url: str | None) -> str:
    return (base_url or os.environ.get("HAKI_URL") or DEFAULT_URL).rstrip("/")


def resolve_key(api_key: str | None) -> str | None:
    return api_key or os.environ.get("HAKI_API_KEY") or None


def headers(api_key: str | None) -> dict[str, str]:
    from .. import __version__

    out = {"User-Agent": f"haki-client/{__version__}"}
    if api_key:
        out["Authorization"] = f"Bearer {api_key}"
    return out


@dataclass(frozen=True)
class RetryPolicy:
    """``max_retries`` resends after the first attempt; waits grow by full jitter."""

    max_retries: int = 3
    backoff_base_s: float = 0.5
    backoff_max_s: float = 8.0
    max_retry_after_s: float = 60.0

    def backoff(self, attempt: int) -> float:
        return random.uniform(0, min(self.backoff_max_s, self.backoff_base_s * 2**attempt))

    def retry_after(self, value: str | None, now: datetime | None = None) -> float | None:
        """Seconds from a ``Retry-After`` header (seconds or an HTTP date), capped."""
        if not value:
            return None
        value = value.strip()
        try:
            seconds = float(value)
        except ValueError:
            try:
                when = parsedate_to_datetime(value)
            except (TypeError, ValueError):
                return None
            if when.tzinfo is None:
                when = when.replace(tzinfo=UTC)
            seconds = (when - (now or datetime.now(UTC))).total_seconds()
        return min(max(seconds, 0.0), self.max_retry_after_s)

    def delay(self, attempt: int, response: httpx.Response | None) -> float | None:
        """Seconds to wait before resending, or None to stop here."""
        if attempt >= self.max_retries:
            return None
        if response is not None:
            if response.status_code not in RETRY_STATUS:
                return None
            told = self.retry_after(response.headers.get("retry-after"))
            if told is not None:
                return told
        return self.backoff(attempt)


def api_error(response: httpx.Response) -> HakiApiError:
    """The typed error for a non-2xx answer, from its envelope when there is one."""
    payload: dict[str, Any] = {}
    error: dict[str, Any] = {}
    try:
        body = response.json()
        if isinstance(body, dict):
            payload = body
            found = body.get("error")
            error = found if isinstance(found, dict) else {}
    except ValueError:
        pass
    message = error.get("message") or f"HTTP {response.status_code}: {response.text[:200]}"
    cls = error_class(response.status_code)
    return cls(
        str(message),
        status_code=response.status_code,
        error_type=error.get("type"),
        field=error.get("field"),
        payload=payload,
        request_id=response.headers.get("x-request-id"),
    )


def connection_error(base_url: str, exc: httpx.HTTPError) -> HakiConnectionError:
    kind = "timed out" if isinstance(exc, httpx.TimeoutException) else "failed"
    return HakiConnectionError(f"connection to Haki at {base_url} {kind}: {exc}")


def sent_nothing(exc: httpx.HTTPError) -> bool:
    """The request never reached the server, so any call may be resent."""
    return isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout)


def decode(response: httpx.Response) -> Any:
    if not response.is_success:
        raise api_error(response)
    return response.json()
