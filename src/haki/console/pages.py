"""The console's pages under ``/console``: server-rendered, one SDK call set per page.

Every handler reads the session, acts through the SDK (``views.client_for``)
and renders a template; every POST checks first that it comes from this site, with the CSRF token. An API
error becomes a message page with the API's own status and type.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter
from fastapi.staticfiles import StaticFiles
from starlette.requests import Request
from starlette.responses import Response

from ..client import AsyncHakiClient, HakiApiError
from ..errors import HakiError, InvalidPayload
from . import session as sessions
from .session import Session
from .subject import facts_view, trace_view
from .views import (
    DEV_PROJECT,
    STATIC,
    auth_on,
    client_for,
    csrf_refused,
    error_page,
    field_of,
    form,
    message_page,
    page,
    redirect,
)

router = APIRouter(prefix="/console", include_in_schema=False)

Handler = Callable[..., Awaitable[Response]]
INJECTED = frozenset({"request", "session", "client", "data"})
TABS = ("timeline", "facts", "conflicts", "traces", "playground", "forget")


def signed_in(handler: Handler) -> Handler:
    """Runs the page with an SDK client for the session; sends strangers to sign-in."""

    async def run(request: Request, **kwargs: Any) -> Response:
        session = sessions.read(request)
        if session.project is None or (session.key is None and auth_on(request)):
            back = request.url.path + (f"?{request.url.query}" if request.url.query else "")
            return redirect(f"/console/sign-in?{urlencode({'next': back})}")
        if request.method == "POST":
            data = await form(request)
            if not sessions.post_ok(request, session, data.get("csrf")):
                return csrf_refused(request, session)
            kwargs["data"] = data
        client = client_for(request, session)
        try:
            return await handler(request, session, client, **kwargs)
        except HakiApiError as exc:
            return error_page(request, session, exc)
        except HakiError as exc:  # the console's own checks of what a form sent
            return message_page(request, session, exc.status, exc.code, exc.message, exc.field)
        finally:
            await client.aclose()

    # FastAPI reads the route's parameters from this signature: the request
    # and the path parameters; the session, client and form come from here.
    inner = inspect.signature(handler)
    params = [
        inspect.Parameter("request", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Request)
    ]
    params += [
        p
        for name, p in inner.parameters.items()
        if name not in INJECTED and p.kind is not inspect.Parameter.VAR_KEYWORD
    ]
    run.__signature__ = inner.replace(parameters=params, return_annotation=Response)  # type: ignore[attr-defined]
    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


def mount_static(app: Any) -> None:
    app.mount("/console/static", StaticFiles(directory=STATIC), name="console-static")


@router.get("")
async def home() -> Response:
    return redirect("/console/subjects")


def _next(target: str | None) -> str:
    """Where to go after sign-in: a console page only (never another site)."""
    if target and target.startswith("/console/") and not target.startswith("//"):
        return target
    return "/console/subjects"


@router.get("/sign-in")
async def sign_in_page(request: Request, expired: int = 0) -> Response:
    session = sessions.read(request)
    target = _next(request.query_params.get("next"))
    return page(request, session, "sign_in.html", expired=bool(expired), error=None, next=target)


@router.post("/sign-in")
async def sign_in(request: Request) -> Response:
    session = sessions.read(request)
    data = await form(request)
    if not sessions.post_ok(request, session, data.get("csrf")):
        return csrf_refused(request, session)
    target = _next(data.get("next"))
    key = field_of(data, "api_key") or None
    wanted = field_of(data, "project_id") or None
    if key is None and auth_on(request):
        return page(
            request,
            session,
            "sign_in.html",
            400,
            expired=False,
            error="Enter an API key.",
            next=target,
        )
    probe = client_for(request, Session(session.sid, key, wanted or DEV_PROJECT))
    try:
        # A project key's own listing names its project; the admin key (or
        # dev mode) names one in the form.
        keys = await probe.list_keys(wanted)
        project = wanted or (keys.keys[0].project_id if keys.keys else None)
    except HakiApiError as exc:
        message = "That key was refused." if exc.status_code == 401 else exc.message
        return page(
            request, session, "sign_in.html", 400, expired=False, error=message, next=target
        )
    finally:
        await probe.aclose()
    response = redirect(target)
    sessions.sign_in(response, request, key, project or DEV_PROJECT)
    return response


@router.post("/sign-out")
async def sign_out(request: Request) -> Response:
    session = sessions.read(request)
    data = await form(request)
    if not sessions.post_ok(request, session, data.get("csrf")):
        return csrf_refused(request, session)
    response = redirect("/console/sign-in")
    sessions.sign_out(response)
    return response


@router.get("/subjects")
@signed_in
async def subjects(
    request: Request, session: Session, client: AsyncHakiClient, **_: Any
) -> Response:
    prefix = request.query_params.get("prefix", "")
    cursor = request.query_params.get("cursor") or None
    listing = await client.subjects(prefix=prefix or None, cursor=cursor, limit=50)
    return page(request, session, "subjects.html", listing=listing, prefix=prefix)


def _subject_page(
    request: Request, session: Session, subject_id: str, tab: str, **context: Any
) -> Response:
    return page(
        request,
        session,
        f"tab_{tab}.html",
        subject_id=subject_id,
        tab=tab,
        tabs=TABS,
        **context,
    )


@router.get("/subjects/{subject_id}/timeline")
@signed_in
async def timeline(
    request: Request, session: Session, client: AsyncHakiClient, subject_id: str, **_: Any
) -> Response:
    q = request.query_params
    kind, since, until = q.get("kind", ""), q.get("since", ""), q.get("until", "")
    page_of = await client.timeline(subject_id, limit=200, cursor=q.get("cursor") or None)
    kinds = sorted({e.kind for e in page_of.events})
    events = [
        e
        for e in page_of.events
        if (not kind or e.kind == kind)
        and (not since or e.occurred_at.date().isoformat() >= since)
        and (not until or e.occurred_at.date().isoformat() <= until)
    ]
    return _subject_page(
        request,
        session,
        subject_id,
        "timeline",
        events=events,
        kinds=kinds,
        kind=kind,
        since=since,
        until=until,
        next_cursor=page_of.next_cursor,
    )


@router.get("/subjects/{subject_id}/facts")
@signed_in
async def facts(
    request: Request, session: Session, client: AsyncHakiClient, subject_id: str, **_: Any
) -> Response:
    as_of_text = request.query_params.get("as_of", "")
    view = await facts_view(client, subject_id, as_of_text)
    return _subject_page(request, session, subject_id, "facts", view=view, as_of=as_of_text)


@router.post("/subjects/{subject_id}/facts/{fact_id}")
@signed_in
async def fact_action(
    request: Request,
    session: Session,
    client: AsyncHakiClient,
    subject_id: str,
    fact_id: str,
    data: dict[str, str],
) -> Response:
    action = data.get("action")
    reason = field_of(data, "reason") or None
    if action == "confirm":
        await client.set_fact_status(fact_id, "active", reason=reason)
    elif action == "retire":
        await client.set_fact_status(fact_id, "superseded", reason=reason)
    elif action == "correct":
        await client.correct_fact(fact_id, field_of(data, "value"), reason=reason)
    return redirect(f"/console/subjects/{subject_id}/facts")


@router.get("/subjects/{subject_id}/conflicts")
@signed_in
async def conflicts(
    request: Request, session: Session, client: AsyncHakiClient, subject_id: str, **_: Any
) -> Response:
    listing = await client.conflicts(subject_id=subject_id, status="open")
    resolved = await client.conflicts(subject_id=subject_id, status="resolved", limit=20)
    return _subject_page(
        request,
        session,
        subject_id,
        "conflicts",
        open_sets=listing.conflicts,
        resolved_sets=resolved.conflicts,
    )


@router.post("/subjects/{subject_id}/conflicts/{conflict_id}")
@signed_in
async def conflict_action(
    request: Request,
    session: Session,
    client: AsyncHakiClient,
    subject_id: str,
    conflict_id: str,
    data: dict[str, str],
) -> Response:
    if data.get("action") == "dismiss":
        await client.dismiss_conflict(conflict_id, reason="dismissed in the console")
    else:
        await client.resolve_conflict(conflict_id, keep_fact_id=field_of(data, "keep_fact_id"))
    return redirect(f"/console/subjects/{subject_id}/conflicts")


@router.get("/subjects/{subject_id}/traces")
@signed_in
async def traces(
    request: Request, session: Session, client: AsyncHakiClient, subject_id: str, **_: Any
) -> Response:
    listing = await client.traces(
        subject_id=subject_id, cursor=request.query_params.get("cursor") or None
    )
    return _subject_page(request, session, subject_id, "traces", listing=listing)


@router.get("/subjects/{subject_id}/traces/{trace_id}")
@signed_in
async def trace(
    request: Request,
    session: Session,
    client: AsyncHakiClient,
    subject_id: str,
    trace_id: str,
    **_: Any,
) -> Response:
    view = await trace_view(client, subject_id, trace_id)
    return _subject_page(request, session, subject_id, "trace", view=view)


@router.get("/subjects/{subject_id}/playground")
@signed_in
async def playground(
    request: Request, session: Session, client: AsyncHakiClient, subject_id: str, **_: Any
) -> Response:
    return _subject_page(request, session, subject_id, "playground", query="", result=None)


@router.post("/subjects/{subject_id}/playground")
@signed_in
async def playground_ask(
    request: Request,
    session: Session,
    client: AsyncHakiClient,
    subject_id: str,
    data: dict[str, str],
) -> Response:
    from ..client import render

    query = field_of(data, "query")
    result = await client.context(subject_id, query)
    view = await trace_view(client, subject_id, result.trace_id)
    return _subject_page(
        request,
        session,
        subject_id,
        "playground",
        query=query,
        result=result,
        block=render(result.packet, subject_id=subject_id),
        view=view,
    )


@router.get("/subjects/{subject_id}/forget")
@signed_in
async def forget_page(
    request: Request, session: Session, client: AsyncHakiClient, subject_id: str, **_: Any
) -> Response:
    fact_id = request.query_params.get("fact_id", "")
    fact = await client.fact(fact_id) if fact_id else None
    return _subject_page(
        request, session, subject_id, "forget", fact=fact, receipt=None, error=None
    )


@router.post("/subjects/{subject_id}/forget")
@signed_in
async def forget(
    request: Request,
    session: Session,
    client: AsyncHakiClient,
    subject_id: str,
    data: dict[str, str],
) -> Response:
    fact_id = field_of(data, "fact_id") or None
    fact = await client.fact(fact_id) if fact_id else None
    if fact is not None and fact.subject_id != subject_id:
        raise InvalidPayload("that fact belongs to another subject", field="fact_id")
    expected = fact.predicate if fact is not None else subject_id
    mode = "delete" if data.get("mode") == "delete" else "disable"
    if field_of(data, "confirm") != expected:
        return _subject_page(
            request,
            session,
            subject_id,
            "forget",
            fact=fact,
            receipt=None,
            error=f"Type {expected!r} exactly to confirm.",
        )
    if fact is not None:
        receipt = await client.forget(fact_id=fact.id, mode=mode)
    else:
        receipt = await client.forget(subject_id=subject_id, mode=mode)
    return _subject_page(
        request, session, subject_id, "forget", fact=fact, receipt=receipt, error=None
    )


@router.get("/overview")
@signed_in
async def overview(
    request: Request, session: Session, client: AsyncHakiClient, **_: Any
) -> Response:
    from .charts import bar_chart, share_width

    stats = await client.stats()
    failed = await client.jobs(status="failed", limit=20)
    days = [(d.day[5:], d.events) for d in stats.per_day]
    calls = [(d.day[5:], d.context_calls) for d in stats.per_day]
    return page(
        request,
        session,
        "overview.html",
        stats=stats,
        events_chart=bar_chart("Events recorded per day", days),
        calls_chart=bar_chart("Context calls per day", calls),
        injection_width=share_width(stats.injection_rate),
        failed=failed,
        now=datetime.now(UTC),
    )


@router.post("/jobs/{job_id}/retry")
@signed_in
async def retry_job(
    request: Request, session: Session, client: AsyncHakiClient, job_id: str, data: dict[str, str]
) -> Response:
    await client.retry_job(job_id)
    return redirect("/console/overview")


@router.get("/keys")
@signed_in
async def keys(request: Request, session: Session, client: AsyncHakiClient, **_: Any) -> Response:
    listing = await client.list_keys(session.project)
    return page(request, session, "keys.html", listing=listing, created=None)


@router.post("/keys")
@signed_in
async def create_key(
    request: Request, session: Session, client: AsyncHakiClient, data: dict[str, str]
) -> Response:
    created = await client.create_key(label=field_of(data, "label") or None)
    listing = await client.list_keys(session.project)
    return page(request, session, "keys.html", listing=listing, created=created)


@router.post("/keys/{key_id}/revoke")
@signed_in
async def revoke_key(
    request: Request, session: Session, client: AsyncHakiClient, key_id: str, data: dict[str, str]
) -> Response:
    await client.revoke_key(key_id)
    return redirect("/console/keys")


@router.get("/device")
@signed_in
async def device_page(
    request: Request, session: Session, client: AsyncHakiClient, **_: Any
) -> Response:
    code = request.query_params.get("user_code", "")
    return page(request, session, "device.html", user_code=code, approved=None)


@router.post("/device")
@signed_in
async def device_approve(
    request: Request, session: Session, client: AsyncHakiClient, data: dict[str, str]
) -> Response:
    code = field_of(data, "user_code")
    await client.approve_device(code, label=field_of(data, "label") or None)
    return page(request, session, "device.html", user_code=code, approved=session.project)
