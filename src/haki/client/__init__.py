"""The Haki Python SDK: ``HakiClient``, ``AsyncHakiClient`` and ``render``.

Importing this package pulls in ``httpx`` and the standard library only,
never the server's stack, so it installs and imports on its own
(``pip install haki-client``).
"""

from ._async import AsyncHakiClient
from ._http import RetryPolicy
from ._sync import HakiClient
from .errors import (
    AuthenticationError,
    ConflictError,
    HakiApiError,
    HakiConnectionError,
    HakiError,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
)
from .render import render
from .types import (
    CaptureResult,
    ContextResult,
    Event,
    Fact,
    Packet,
    PacketEpisode,
    PacketFact,
    Timeline,
    Trace,
)

__all__ = [
    "AsyncHakiClient",
    "AuthenticationError",
    "CaptureResult",
    "ConflictError",
    "ContextResult",
    "Event",
    "Fact",
    "HakiApiError",
    "HakiClient",
    "HakiConnectionError",
    "HakiError",
    "InvalidRequestError",
    "NotFoundError",
    "Packet",
    "PacketEpisode",
    "PacketFact",
    "PermissionDeniedError",
    "RateLimitError",
    "RetryPolicy",
    "ServerError",
    "Timeline",
    "Trace",
    "render",
]
