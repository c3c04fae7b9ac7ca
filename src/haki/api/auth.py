"""Who is calling: the principal behind a request, and the project checks routes apply.

With auth disabled (loopback dev mode) the principal may act on any
project. With auth enabled, every ``/v1`` route needs
``Authorization: Bearer <key>``: a project key (``hk_...``) may name only its
own project; the admin key (``HAKI_ADMIN_KEY``) may act on any project and
manage keys. Every failure is the same 401, so a caller learns nothing about
why a key was refused; the key itself never reaches a log or a message.
"""

from __future__ import annotations

import hmac
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from ..auth import RateLimiter, resolve
from ..auth.material import MAX_TOKEN_LEN
from ..config import Settings
from ..errors import ForbiddenScope, MissingScope, RateLimited, Unauthorized
from ..storage.db import bind_project
from .state import AppState

# Routes whose calls are rate-limited per key: those that do real work on
# every call (embedding, retrieval, writes, a model call upstream). A
# gateway chat completion takes one unit for itself, and its memory calls
# (context, capture) take theirs: a key out of units is refused before
# anything is forwarded.
RATE_LIMITED_PATHS = frozenset({"/v1/context", "/v1/capture", "/gateway/v1/chat/completions"})

_LIMITER = "auth.rate_limiter"
_ADMIN_LIMITER = "auth.admin_rate_limiter"
# The admin key's counter: a fixed key id, which no issued key (random UUIDs) has.
ADMIN_WINDOW = ("~admin", "00000000-0000-0000-0000-00000000a0a0")

# The counters of calls limited per client address (``limit_per_address``).
ADDRESS_PARTITION = "~address"

# /v1 routes a caller reaches without a key: a terminal's device login,
# before it has one (``routes/device.py``).
PUBLIC_V1_PATHS = frozenset({"/v1/cli/device/start", "/v1/cli/device/poll"})


@dataclass(frozen=True, slots=True)
class Principal:
    project_id: str | None  # None: any project (dev mode or admin)
    key_id: str | None = None
    admin: bool = False
    org_id: str | None = None

    def require(self, *project_ids: str | None) -> None:
        """Every project a request names must be the key's project."""
        if self.project_id is None:
            return
        for pid in project_ids:
            if pid is not None and pid != self.project_id:
                raise ForbiddenScope("this key may not access that project")

    def project(self, requested: str | None) -> str:
        """The project a request acts on: the one it names (checked), else the key's.

        A project key names its project, so ``project_id`` may be left out
        with one; in dev mode and with the admin key it is required."""
        self.require(requested)
        chosen = requested if requested is not None else self.project_id
        if chosen is None:
            raise MissingScope("project_id is required", field="project_id")
        return chosen


DEV_PRINCIPAL = Principal(project_id=None, admin=True)
ADMIN_PRINCIPAL = Principal(project_id=None, key_id="admin", admin=True)

_INVALID = "missing or invalid API key"


def bearer_token(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN_LEN:
        raise Unauthorized(_INVALID)
    return token


def is_admin_key(token: str, settings: Settings) -> bool:
    if not settings.admin_key:
        return False
    return hmac.compare_digest(token.encode("utf-8"), settings.admin_key.encode("utf-8"))


async def authenticate(request: Request) -> Principal:
    state: AppState = request.app.state.haki
    token = bearer_token(request)
    if is_admin_key(token, state.settings):
        return ADMIN_PRINCIPAL
    owner = await resolve(state.db, token)
    if owner is None:
        raise Unauthorized(_INVALID)
    return Principal(project_id=owner.project_id, key_id=str(owner.id), org_id=owner.org_id)


def rate_limiter(state: AppState, *, admin: bool = False) -> RateLimiter:
    name = _ADMIN_LIMITER if admin else _LIMITER
    limiter = state.extras.get(name)
    if not isinstance(limiter, RateLimiter):
        settings = state.settings
        per_minute = (
            settings.admin_rate_limit_per_minute if admin else settings.rate_limit_per_minute
        )
        limiter = state.extras[name] = RateLimiter(per_minute)
    return limiter


def app_path(request: Request) -> str:
    """The request path inside the app, whatever prefix a proxy mounts it under."""
    path: str = request.scope["path"]
    root: str = request.scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root) else path


async def enforce_rate_limit(request: Request, principal: Principal) -> None:
    if app_path(request) not in RATE_LIMITED_PATHS or principal.key_id is None:
        return
    state: AppState = request.app.state.haki
    if principal.project_id is None:  # the admin key: limited too, on its own counter
        project, key = ADMIN_WINDOW
        wait = await rate_limiter(state, admin=True).acquire(state.db, project, key)
    else:
        limiter = rate_limiter(state)
        wait = await limiter.acquire(state.db, principal.project_id, principal.key_id)
    if wait is not None:
        raise RateLimited(
            "too many requests for this key; retry later", headers={"Retry-After": str(wait)}
        )


def client_address(request: Request) -> str:
    """The caller's address (the proxy's own, unless uvicorn trusts its forwarded headers)."""
    return request.client.host if request.client is not None else ""


async def limit_per_address(request: Request, what: str, per_minute: int) -> None:
    """``per_minute`` calls of ``what`` per client address: for the routes that take
    no key, so one address cannot spend what every other caller shares."""
    state: AppState = request.app.state.haki
    # A counter per (what, address): a fixed UUID derived from both, in a
    # partition of its own beside the keys' counters.
    counter = str(uuid.uuid5(uuid.NAMESPACE_URL, f"haki:{what}:{client_address(request)}"))
    wait = await RateLimiter(per_minute).acquire(state.db, ADDRESS_PARTITION, counter)
    if wait is not None:
        raise RateLimited(
            f"too many {what} calls from this address; retry later",
            headers={"Retry-After": str(wait)},
        )


async def get_principal(request: Request) -> Principal:
    # Memoised on the request: the app-wide guard and the route's own
    # dependency share one authentication and one rate-limit token.
    known = getattr(request.state, "haki_principal", None)
    if isinstance(known, Principal):
        return known
    if not request.app.state.haki.settings.auth_enabled:
        principal = DEV_PRINCIPAL
    else:
        principal = await authenticate(request)
        await enforce_rate_limit(request, principal)
    request.state.haki_principal = principal
    return principal


async def guard_v1(request: Request) -> AsyncIterator[None]:
    """App-wide dependency on /v1: a route that forgets ``PrincipalDep`` still
    needs a valid key, and one that forgets ``principal.require`` still cannot
    open a transaction for another project than the key's."""
    path = app_path(request)
    if (path != "/v1" and not path.startswith("/v1/")) or path in PUBLIC_V1_PATHS:
        yield
        return
    principal = await get_principal(request)
    with bind_project(principal.project_id):
        yield


PrincipalDep = Annotated[Principal, Depends(get_principal)]
