"""The console in a real Chromium: one server and one browser for the module.

The server is the real app under uvicorn, with auth on, on its own migrated
database. Data is written through the SDK over HTTP as an agent would. Each
flow drives the pages the way a person does and checks what the page shows
and, where it matters, what the API then answers. Screenshots of the main
pages go to a temporary directory, or to docs/console/ (the README's pictures)
with ``HAKI_CONSOLE_SHOTS=docs/console``: a test run leaves the tree as it was.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import psycopg
import pytest
import uvicorn
from psycopg import sql
from tests.conftest import TEMPLATE

from haki.api.app import create_app
from haki.client import HakiClient
from haki.config import load_settings
from haki.providers import Providers

CHROMIUM = os.environ.get("HAKI_CHROMIUM", "/usr/bin/chromium")
pytestmark = pytest.mark.skipif(
    shutil.which(CHROMIUM) is None and not Path(CHROMIUM).exists(),
    reason="chromium is missing: `make test` installs it (apt-get install chromium)",
)
ADMIN = "console-admin-key-0123456789abcdef"
SHOTS = (
    Path(os.environ["HAKI_CONSOLE_SHOTS"])
    if os.environ.get("HAKI_CONSOLE_SHOTS")
    else Path(tempfile.gettempdir()) / f"haki-console-shots-{os.getpid()}"
)
XSS_TURN = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2"> I live in Paris.'
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def module_db(pg_maintenance_url: str, template_url: str) -> Iterator[str]:
    name = f"console_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(pg_maintenance_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(TEMPLATE)
            )
        )
    info = psycopg.conninfo.conninfo_to_dict(pg_maintenance_url)
    info["dbname"] = name
    yield psycopg.conninfo.make_conninfo(**info)
    with psycopg.connect(pg_maintenance_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


@pytest.fixture(scope="module")
def server(module_db: str, local_embedder) -> Iterator[str]:
    settings = load_settings(auth="on", admin_key=ADMIN, database_url=None)
    app = create_app(settings, database_url=module_db, providers=Providers(embedder=local_embedder))
    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 180  # a start-up wait: the machine may be busy
    while not srv.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=15)


def _mint(server: str, project: str) -> str:
    with HakiClient(server, ADMIN) as admin:
        key = admin.create_key(project_id=project, label="seed").key
    assert key is not None
    return key


@pytest.fixture(scope="module")
def seeded(server: str) -> dict[str, str]:
    """Project A: maya (a history, a hostile turn, a quarantined claim), a trace; project B: bob."""
    key_a, key_b = _mint(server, "proj-a"), _mint(server, "proj-b")
    now = datetime.now(UTC)
    with HakiClient(server, key_a, project_id="proj-a") as a:
        a.capture(
            [
                {
                    "subject_id": "maya",
                    "kind": "conversation.message",
                    "actor_type": "user",
                    "occurred_at": (now - timedelta(days=3)).isoformat(),
                    "payload": {"role": "user", "content": XSS_TURN},
                },
                {
                    "subject_id": "maya",
                    "kind": "conversation.message",
                    "actor_type": "user",
                    "origin_trust": "untrusted",
                    "occurred_at": (now - timedelta(days=1)).isoformat(),
                    "payload": {"role": "user", "content": "I live in Berlin."},
                },
            ]
        )
        a.consolidate_subject(subject_id="maya")
        for value, days in (("Initech", 400), ("Globex", 100)):
            written = a._http.post(
                "/v1/facts",
                json={
                    "project_id": "proj-a",
                    "subject_id": "maya",
                    "predicate": "employer",
                    "value": value,
                    "valid_from": (now - timedelta(days=days)).isoformat(),
                },
            )
            assert written.status_code == 201, written.text
        a.context("maya", "Where does Maya live and work?")
    with HakiClient(server, key_b, project_id="proj-b") as b:
        b.add([{"role": "user", "content": "I live in Oslo."}], subject_id="bob")
        b.consolidate_subject(subject_id="bob")
    return {"a": key_a, "b": key_b}


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


def _signed_in(browser, server: str, key: str, project: str = ""):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{server}/console/sign-in")
    page.fill("input[name=api_key]", key)
    if project:
        page.fill("input[name=project_id]", project)
    page.click("button[type=submit]")
    return context, page


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_sign_in_subjects_and_hostile_text_stays_text(browser, server, seeded):
    context, page = _signed_in(browser, server, seeded["a"])
    try:
        assert page.url.endswith("/console/subjects")
        assert "maya" in page.inner_text("table.list")
        assert "bob" not in page.inner_text("main")
        cookie = next(c for c in context.cookies() if c["name"] == "haki_console_key")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        _shot(page, "subjects")
        page.click("text=maya")
        page.click("nav.tabs >> text=Timeline")
        text = page.inner_text("table.timeline")
        assert "<script>window.__xss=1</script>" in text and "onerror" in text
        assert page.evaluate("window.__xss") is None
        assert page.locator("main img").count() == 0
        _shot(page, "timeline")
    finally:
        context.close()


def test_fact_history_as_of_and_correction(browser, server, seeded):
    context, page = _signed_in(browser, server, seeded["a"])
    try:
        page.goto(f"{server}/console/subjects/maya/facts")
        employer = page.locator("article.fact", has_text="employer")
        assert "Globex" in employer.inner_text()
        assert "Initech" in employer.locator("details.history").inner_text()
        _shot(page, "facts")
        then = (datetime.now(UTC) - timedelta(days=200)).date().isoformat()
        page.fill("input[name=as_of]", then)
        page.click("text=Show")
        as_of = page.inner_text("section.as-of")
        assert "Initech" in as_of and "Globex" not in as_of
        # The status it had on that day (the current value then), not today's.
        row = page.locator("tr.fact-then", has_text="Initech")
        assert row.locator("td.status-then").inner_text().startswith("active")
        employer = page.locator("article.fact", has_text="employer")
        employer.locator("input[name=value]").fill("Hooli")
        before = datetime.now(UTC)
        employer.locator("form:has(input[value=correct]) button").click()
        employer = page.locator("article.fact", has_text="employer")
        assert "Hooli" in employer.locator("header").inner_text()
        assert "Globex" in employer.locator("details.history").inner_text()
        _shot(page, "facts-corrected")
        # The correction is dated when it is made: the old version keeps its span.
        with HakiClient(server, seeded["a"], project_id="proj-a") as a:
            facts = {f.value: f for f in a.facts(subject_id="maya").facts}
        hooli, globex = facts["Hooli"], facts["Globex"]
        assert hooli.valid_from is not None and hooli.valid_from >= before - timedelta(seconds=5)
        assert globex.valid_to == hooli.valid_from != globex.valid_from
    finally:
        context.close()


def test_resolve_a_conflict(browser, server, seeded):
    context, page = _signed_in(browser, server, seeded["a"])
    try:
        page.goto(f"{server}/console/subjects/maya/conflicts")
        conflict = page.locator("article.conflict").first
        assert "Berlin" in conflict.inner_text()
        _shot(page, "conflicts")
        conflict.locator("text=Dismiss the candidates").click()
        assert page.locator("article.conflict").count() == 0
        assert "resolved" in page.inner_text("main")
    finally:
        context.close()


def test_trace_shows_the_served_texts_and_playground(browser, server, seeded):
    context, page = _signed_in(browser, server, seeded["a"])
    try:
        page.goto(f"{server}/console/subjects/maya/traces")
        page.locator("table.list a").first.click()
        served = page.inner_text("ul.served")
        assert "Globex" in served or "Paris" in served
        assert page.locator("tr.decision").count() >= 1
        _assert_each_episode_dated_once(page)
        _shot(page, "trace")
        page.goto(f"{server}/console/subjects/maya/playground")
        page.fill("input[name=query]", "Where does Maya live?")
        page.click("text=Get context")
        block = page.inner_text("pre.memory-block")
        assert "<haki_memory>" in block
        _assert_each_episode_dated_once(page)
        _shot(page, "playground")
    finally:
        context.close()


def _assert_each_episode_dated_once(page) -> None:
    items = page.locator("li.served-episode")
    assert items.count() >= 1
    for text in items.all_inner_texts():
        assert len(re.findall(r"\d{4}-\d{2}-\d{2}", text)) == 1, text


def test_forget_a_fact_and_it_is_gone_everywhere(browser, server, seeded):
    context, page = _signed_in(browser, server, seeded["a"])
    try:
        page.goto(f"{server}/console/subjects/maya/facts")
        employer = page.locator("article.fact", has_text="employer")
        employer.locator("text=Forget…").click()
        # The confirm prompt reads on one line; each radio sits on its label's line.
        prompt = page.locator("label.confirm > span").bounding_box()
        code = page.locator("label.confirm code").bounding_box()
        assert prompt and code and prompt["height"] < 2 * code["height"] + 4
        for choice in page.locator("label.choice").all():
            radio = choice.locator("input").bounding_box()
            box = choice.bounding_box()
            assert radio and box and box["height"] < 2 * radio["height"] + 8
            assert radio["x"] < box["x"] + 16  # left of its words, not above them
        _shot(page, "forget")
        page.fill("input[name=confirm]", "wrong")
        page.click("button.danger")
        assert "exactly" in page.inner_text("p.error")
        page.fill("input[name=confirm]", "employer")
        page.check("input[value=delete]")
        page.click("button.danger")
        assert "Receipt" in page.inner_text("section.receipt")
        page.goto(f"{server}/console/subjects/maya/facts")
        assert "Hooli" not in page.inner_text("main")
        page.goto(f"{server}/console/subjects/maya/playground")
        page.fill("input[name=query]", "Where does she work?")
        page.click("text=Get context")
        assert "Hooli" not in page.inner_text("main")
        with HakiClient(server, seeded["a"], project_id="proj-a") as a:
            served = a.context("maya", "employer Hooli job work")
            assert "Hooli" not in str(served.raw)
            assert all(f.value != "Hooli" for f in a.facts(subject_id="maya").facts)
    finally:
        context.close()


def test_a_project_key_cannot_see_another_project(browser, server, seeded):
    context, page = _signed_in(browser, server, seeded["a"])
    try:
        response = page.request.get(f"{server}/v1/subjects?project_id=proj-b")
        assert response.status == 401  # the cookie is no API credential
        page.goto(f"{server}/console/subjects/bob/facts")
        assert "Oslo" not in page.inner_text("main")
        with HakiClient(server, seeded["a"], project_id="proj-b") as a:
            from haki.client import PermissionDeniedError

            with pytest.raises(PermissionDeniedError):
                a.subjects()
    finally:
        context.close()
    context, page = _signed_in(browser, server, seeded["a"], project="proj-b")
    try:
        assert "may not access" in page.inner_text("main")
        assert "haki_console_key" not in {c["name"] for c in context.cookies()}
    finally:
        context.close()


def test_security_headers_and_csrf(browser, server, seeded):
    context, page = _signed_in(browser, server, seeded["a"])
    try:
        response = page.goto(f"{server}/console/subjects")
        csp = response.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        forged = page.request.post(
            f"{server}/console/keys", form={"label": "forged", "csrf": "0" * 64}
        )
        assert forged.status == 403
        page.goto(f"{server}/console/keys")
        assert "forged" not in page.inner_text("main")
    finally:
        context.close()


def test_overview_and_keys(browser, server, seeded, module_db):
    with psycopg.connect(module_db) as conn:  # the table owner: a job that failed for good
        conn.execute(
            "UPDATE jobs SET status = 'failed', last_error = 'extractor timed out' "
            "WHERE id = (SELECT id FROM jobs WHERE project_id = 'proj-a' ORDER BY created_at LIMIT 1)"
        )
    context, page = _signed_in(browser, server, seeded["a"])
    try:
        page.goto(f"{server}/console/overview")
        assert page.locator("figure.chart svg rect.bar").count() >= 14
        assert "Memory served rate" in page.inner_text("main")
        assert "Injection rate" not in page.inner_text("main")
        for chart in page.locator("figure.chart").all():  # each chart fills its frame
            frame, svg = chart.bounding_box(), chart.locator("svg").bounding_box()
            assert frame and svg and svg["width"] > 0.9 * frame["width"]
        failed = page.locator("tr", has_text="extractor timed out")
        assert failed.count() == 1
        _shot(page, "overview")
        failed.locator("button:has-text('Retry')").click()
        assert page.locator("tr", has_text="extractor timed out").count() == 0
        page.goto(f"{server}/console/keys")
        page.fill("input[name=label]", "ci-bot")
        page.click("text=Create a key")
        secret = page.inner_text("pre.secret").strip()
        assert secret.startswith("hk_")
        with HakiClient(server, secret, project_id="proj-a") as fresh:
            assert fresh.subjects().subjects
        row = page.locator("tr", has_text="ci-bot")
        row.locator("text=Revoke").click()
        assert "revoked" in page.locator("tr", has_text="ci-bot").inner_text()
        page.click("text=Sign out")
        assert page.url.endswith("/console/sign-in")
        page.goto(f"{server}/console/subjects")
        assert "/console/sign-in?next=" in page.url
    finally:
        context.close()


def test_device_login_end_to_end(browser, server, seeded):
    """The terminal side sends exactly what gethaki 0.2.0's ``haki login`` sends."""
    terminal = httpx.Client(base_url=server, timeout=10)
    start = terminal.post("/v1/cli/device/start")
    assert start.status_code == 200, start.text
    started = start.json()
    for field in ("device_code", "user_code", "verification_uri", "expires_in", "interval"):
        assert started[field]
    poll = {"device_code": started["device_code"]}
    assert terminal.post("/v1/cli/device/poll", json=poll).json() == {
        "status": "pending",
        "api_key": None,
        "org_id": None,
        "project_id": None,
    }

    context = browser.new_context()
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(started["verification_uri_complete"])  # not signed in: sign-in, then back
        assert "/console/sign-in" in page.url
        page.fill("input[name=api_key]", seeded["a"])
        page.click("button[type=submit]")
        assert "/console/device" in page.url
        assert page.input_value("input[name=user_code]") == started["user_code"]
        _shot(page, "device")
        page.click('button:has-text("Approve")')
        assert "Approved" in page.inner_text("main")
    finally:
        context.close()

    approved = terminal.post("/v1/cli/device/poll", json=poll).json()
    assert approved["status"] == "approved" and approved["project_id"] == "proj-a"
    with HakiClient(server, approved["api_key"]) as fresh:
        assert [s.subject_id for s in fresh.subjects(project_id="proj-a").subjects]
    # The code is consumed: a second poll learns nothing more.
    assert terminal.post("/v1/cli/device/poll", json=poll).json()["status"] == "expired"
    terminal.close()


def test_api_docs_load_offline(browser, server, seeded):
    context = browser.new_context()
    page = context.new_page()
    outside: list[str] = []
    page.on(
        "request",
        lambda r: outside.append(r.url) if not r.url.startswith(server) else None,
    )
    try:
        page.goto(f"{server}/docs")
        page.wait_for_selector(".swagger-ui .opblock", timeout=20_000)
        assert "/v1/subjects" in page.inner_text(".swagger-ui")
        assert outside == []
    finally:
        context.close()
