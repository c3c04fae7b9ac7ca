"""The OpenAI-compatible endpoint the gateway forwards to (``HAKI_LLM_BASE_URL``).

One pooled HTTP client per process. The caller's own credential is for Haki
and never leaves the process: the upstream sees ``HAKI_LLM_API_KEY``. Bodies
are passed through as bytes, compressed or not, so what the client receives
is exactly what the upstream sent.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx

from ..errors import UpstreamUnavailable

# Headers that describe one hop, or that httpx recomputes, are not copied.
_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "transfer-encoding",
        "content-length",
        "content-encoding",
        "te",
        "trailer",
        "upgrade",
        "proxy-authenticate",
        "proxy-authorization",
        "server",
        "date",
    }
)


def passthrough_headers(headers: httpx.Headers) -> dict[str, str]:
    return {k: v for k, v in headers.items() if k.lower() not in _HOP}


class Upstream:
    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        timeout_s: float,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        headers = {"accept-encoding": "identity"}
        if api_key:
            headers["authorization"] = f"Bearer {api_key}"
        # A stream may stay quiet longer than a connect should take.
        timeout = httpx.Timeout(timeout_s, connect=min(timeout_s, 10.0))
        self._client = httpx.AsyncClient(
            base_url=base_url.rstrip("/") + "/",
            headers=headers,
            timeout=timeout,
            transport=transport,
        )

    async def close(self) -> None:
        await self._client.aclose()

    async def send(
        self, method: str, path: str, body: bytes | None = None, *, stream: bool = False
    ) -> httpx.Response:
        """One upstream call; an unreachable upstream is ``UpstreamUnavailable``.

        With ``stream=True`` the body is left unread: iterate ``chunks`` and the
        response closes when they end.
        """
        request = self._client.build_request(
            method,
            path.lstrip("/"),
            content=body,
            headers={"content-type": "application/json"} if body is not None else None,
        )
        try:
            return await self._client.send(request, stream=stream)
        except httpx.TransportError as exc:
            raise UpstreamUnavailable(
                f"the model endpoint is unreachable ({exc.__class__.__name__})"
            ) from exc


async def chunks(response: httpx.Response) -> AsyncIterator[bytes]:
    """The raw bytes of a streamed response, closing it at the end or on error.

    A stream cut by the upstream ends here; the client sees the cut as the
    upstream made it.
    """
    try:
        async for chunk in response.aiter_raw():
            yield chunk
    except httpx.TransportError:
        return
    finally:
        await response.aclose()
