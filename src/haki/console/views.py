"""What every console page shares: templates, security headers, the SDK client, errors.

Pages act through ``AsyncHakiClient`` over ``httpx.ASGITransport`` to this
same app, with the signed-in key: the console meets exactly the API's auth,
scope checks and row-level security, and reaches no table by itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from ..client import AsyncHakiClient, HakiApiError
from . import session as sessions
from .session import Session

HERE = Path(__file__).parent
STATIC = HERE / "static"

# No inline script or style anywhere: every page loads /console/static only.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}

# The project dev mode acts on when the sign-in names none.
DEV_PROJECT = "default"


def _when(value: Any) -> str:
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    return "" if value is None else str(value)


_DAY_PREFIX = re.compile(r"^\[\d{4}-\d{2}-\d{2}\] ")


def _undated(text: str) -> str:
    """An episode's served text without its leading ``[YYYY-MM-DD]``, where the
    page already shows the time beside it."""
    return _DAY_PREFIX.sub("", text or "", count=1)


def _value(value: Any) -> str:
    """A fact value as a person reads it: strings bare, anything else as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"], default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["when"] = _when
    env.filters["value"] = _value
    env.filters["undated"] = _undated
    return env


TEMPLATES = _environment()


def auth_on(request: Request) -> bool:
    return bool(request.app.state.haki.settings.auth_enabled)


def page(
    request: Request, session: Session, name: str, status_code: int = 200, **context: Any
) -> HTMLResponse:
    html = TEMPLATES.get_template(name).render(
        csrf=session.csrf,
        project=session.project,
        signed_in=session.key is not None or not auth_on(request),
        dev_mode=not auth_on(request),
        **context,
    )
    response = HTMLResponse(html, status_code=status_code, headers=SECURITY_HEADERS)
    sessions.keep_sid(response, request, session)
    return response


def redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303, headers=SECURITY_HEADERS)


def client_for(request: Request, session: Session) -> AsyncHakiClient:
    return AsyncHakiClient(
        base_url="http://haki.internal",
        api_key=session.key or None,
        transport=httpx.ASGITransport(app=request.app),
        project_id=session.project or DEV_PROJECT,
        max_retries=0,
    )


def error_page(request: Request, session: Session, exc: HakiApiError) -> Response:
    """The API's typed error as a message, with the API's status code."""
    if exc.status_code == 401:
        return redirect("/console/sign-in?expired=1")
    return message_page(request, session, exc.status_code, exc.type, exc.message, exc.field)


def message_page(
    request: Request,
    session: Session,
    status_code: int,
    error_type: str | None,
    message: str,
    field: str | None,
) -> Response:
    return page(
        request,
        session,
        "error.html",
        status_code=status_code,
        error_type=error_type,
        message=message,
        field=field,
    )


async def form(request: Request) -> dict[str, str]:
    """An urlencoded form body, last value of each field."""
    raw = (await request.body()).decode("utf-8", errors="replace")
    return {k: v[-1] for k, v in parse_qs(raw, keep_blank_values=True).items()}


def csrf_refused(request: Request, session: Session) -> Response:
    message = "This form has expired or did not come from the console: reload the page and retry."
    return message_page(request, session, 403, "csrf_failed", message, None)


def field_of(data: Mapping[str, str], name: str) -> str:
    return data.get(name, "").strip()
