"""Who is calling: the principal behind a request, and the project checks routes apply.

With auth disabled (loopback dev mode) the principal may act on any
project. With auth enabled, the bearer key's project is the only project a
request may name; an admin key (``HAKI_ADMIN_KEY``) may manage keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from ..errors import ForbiddenScope, Unauthorized


@dataclass(frozen=True, slots=True)
class Principal:
    project_id: str | None  # None: any project (dev mode or admin)
    key_id: str | None = None
    admin: bool = False

    def require(self, *project_ids: str | None) -> None:
        """Every project a request names must be the key's project."""
        if self.project_id is None:
            return
        for pid in project_ids:
            if pid is not None and pid != self.project_id:
                raise ForbiddenScope("this key may not access that project")


DEV_PRINCIPAL = Principal(project_id=None)


async def authenticate(request: Request) -> Principal:
    raise Unauthorized("missing or invalid API key")


async def get_principal(request: Request) -> Principal:
    if not request.app.state.haki.settings.auth_enabled:
        return DEV_PRINCIPAL
    return await authenticate(request)


PrincipalDep = Annotated[Principal, Depends(get_principal)]
