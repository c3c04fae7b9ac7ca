"""The console's session: the signed-in key in a cookie, and the CSRF token bound to it.

The key is the session: it sits in an http-only, ``SameSite=Strict`` cookie
(``Secure`` on https), so page scripts cannot read it and other sites cannot
send it. A second http-only cookie holds a random session id; the CSRF token
every form carries is an HMAC of the key under that id, so it changes with
each sign-in, needs no server-side store (any API process checks it), and
cannot be forged without both cookies.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response

KEY_COOKIE = "haki_console_key"
PROJECT_COOKIE = "haki_console_project"
SID_COOKIE = "haki_console_sid"
COOKIE_PATH = "/console"
MAX_AGE_S = 12 * 3600


@dataclass(frozen=True, slots=True)
class Session:
    sid: str
    key: str | None
    project: str | None

    @property
    def csrf(self) -> str:
        return csrf_token(self.sid, self.key)


def csrf_token(sid: str, key: str | None) -> str:
    return hmac.new(sid.encode(), (key or "").encode(), hashlib.sha256).hexdigest()


def read(request: Request) -> Session:
    """The session the request carries; a fresh session id when it has none."""
    cookies = request.cookies
    sid = cookies.get(SID_COOKIE) or secrets.token_urlsafe(32)
    return Session(sid, cookies.get(KEY_COOKIE) or None, cookies.get(PROJECT_COOKIE) or None)


def csrf_ok(session: Session, sent: str | None) -> bool:
    return bool(sent) and hmac.compare_digest(session.csrf, sent or "")


def _set(response: Response, request: Request, name: str, value: str) -> None:
    response.set_cookie(
        name,
        value,
        max_age=MAX_AGE_S,
        path=COOKIE_PATH,
        secure=request.url.scheme == "https",
        httponly=True,
        samesite="strict",
    )


def keep_sid(response: Response, request: Request, session: Session) -> None:
    """Sends the session id cookie when the browser does not hold it yet."""
    if request.cookies.get(SID_COOKIE) != session.sid:
        _set(response, request, SID_COOKIE, session.sid)


def sign_in(response: Response, request: Request, key: str | None, project: str) -> None:
    """A new session id with the key: a token from before sign-in is no longer valid."""
    _set(response, request, SID_COOKIE, secrets.token_urlsafe(32))
    _set(response, request, KEY_COOKIE, key or "")
    _set(response, request, PROJECT_COOKIE, project)


def sign_out(response: Response) -> None:
    for name in (KEY_COOKIE, PROJECT_COOKIE, SID_COOKIE):
        response.delete_cookie(name, path=COOKIE_PATH, httponly=True, samesite="strict")
