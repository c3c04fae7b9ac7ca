"""The console's session: the signed-in key in a cookie, and the CSRF token bound to it.

The key is the session: it sits in an http-only, ``SameSite=Strict`` cookie
(``Secure`` on https), so page scripts cannot read it and other sites cannot
send it. A second http-only cookie holds a random session id; the CSRF token
every form carries is an HMAC of the key under that id, so it changes with
each sign-in, needs no server-side store (any API process checks it), and
cannot be forged without both cookies. A form post must also not come from
another site by what the browser says of it (``from_this_site``):
``Sec-Fetch-Site``, else ``Origin``; a client that sends neither (no
browser) still needs the token.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit

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


# What ``Sec-Fetch-Site`` says of a request the console's own pages sent
# ("none": the person typed or bookmarked it).
_OWN_SITE = frozenset({"same-origin", "none"})


def from_this_site(request: Request) -> bool:
    """Whether the browser's own headers place the request on this site.

    ``Origin`` is compared with the host the request was sent to (``Host``,
    or ``X-Forwarded-Host`` behind a proxy that rewrites it); ``Origin:
    null`` (a sandboxed frame, a redirect across sites) is another site.
    """
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return site.lower() in _OWN_SITE
    origin = request.headers.get("origin")
    if origin is None:
        return True
    sent_to = {request.headers.get(h, "").lower() for h in ("host", "x-forwarded-host")}
    return urlsplit(origin).netloc.lower() in sent_to - {""}


def post_ok(request: Request, session: Session, sent: str | None) -> bool:
    """A console form post is accepted: from this site, with the session's token."""
    return from_this_site(request) and csrf_ok(session, sent)


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
