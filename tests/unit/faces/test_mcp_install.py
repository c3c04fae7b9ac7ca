"""``haki mcp install``: each host's file, written fresh and merged into an existing one.

Golden files live in tests/fixtures/mcp_install: ``<host>-<transport>.golden`` for a
fresh install, ``merged-<host>.golden`` for an install into ``existing-<host>.*``.
Regenerate them with ``HAKI_REGEN_GOLDEN=1`` after a deliberate change, and read the diff.
"""

from __future__ import annotations

import json
import os
import shutil
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from haki.cli import cli
from haki.errors import InvalidPayload
from haki.mcp import install as wiring

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "mcp_install"
EXISTING = {
    "claude": "existing-claude.json",
    "codex": "existing-codex.toml",
    "cursor": "existing-cursor.json",
    "gemini": "existing-gemini.json",
}


def golden(name: str, text: str) -> None:
    path = FIXTURES / name
    if os.environ.get("HAKI_REGEN_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("transport", ["http", "stdio"])
@pytest.mark.parametrize("host", wiring.HOSTS)
def test_fresh_install_matches_golden(tmp_path: Path, host: str, transport: str) -> None:
    w = wiring.Wiring(host=host, transport=transport)  # type: ignore[arg-type]
    path = wiring.config_path(w.host, tmp_path, global_=False, home=tmp_path / "home")
    change = wiring.plan(w, path)
    assert wiring.apply(change) is True
    text = path.read_text(encoding="utf-8")
    golden(f"{host}-{transport}.golden", text)
    assert "hk_" not in text  # keys are referenced, never written
    assert wiring.apply(wiring.plan(w, path)) is False  # re-running changes nothing


@pytest.mark.parametrize("host", wiring.HOSTS)
def test_install_merges_and_uninstall_restores_the_rest(tmp_path: Path, host: str) -> None:
    w = wiring.Wiring(host=host)  # type: ignore[arg-type]
    path = wiring.config_path(w.host, tmp_path, global_=False, home=tmp_path / "home")
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(FIXTURES / EXISTING[host], path)
    original = path.read_text(encoding="utf-8")
    wiring.apply(wiring.plan(w, path))
    merged = path.read_text(encoding="utf-8")
    golden(f"merged-{host}.golden", merged)
    if host == "codex":
        doc = tomllib.loads(merged)
        assert list(doc["mcp_servers"]) == ["docs", "haki"]
        assert doc["mcp_servers"]["haki"]["url"] == "http://127.0.0.1:8100/mcp"
        assert "tools" not in doc["mcp_servers"]["haki"]  # the old managed table is replaced
        assert doc["profiles"]["fast"]["model"] == "gpt-5-mini"
    else:
        doc = json.loads(merged)
        before = json.loads(original)
        others = [k for k in before["mcpServers"] if k != "haki"]
        assert list(doc["mcpServers"]) == [*others, "haki"]
        for key, value in before.items():
            if key != "mcpServers":
                assert doc[key] == value
    wiring.apply(wiring.plan(w, path, remove=True))
    after = path.read_text(encoding="utf-8")
    assert "haki" not in after.replace("haki_context", "")
    if host == "codex":
        assert "[mcp_servers.docs]" in after and "[profiles.fast]" in after


def test_a_broken_file_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / ".mcp.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(InvalidPayload, match="not valid JSON"):
        wiring.plan(wiring.Wiring(host="claude"), path)
    assert path.read_text(encoding="utf-8") == "{not json"


def test_cli_install_print_and_global(tmp_path: Path) -> None:
    runner = CliRunner()
    home = tmp_path / "home"
    res = runner.invoke(
        cli,
        ["mcp", "install", "--host", "cursor", "--dir", str(tmp_path), "--print"],
        env={"HOME": str(home)},
    )
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["mcpServers"]["haki"]["headers"]["Authorization"] == (
        "Bearer ${env:HAKI_API_KEY}"
    )
    assert not (tmp_path / ".cursor").exists()
    res = runner.invoke(
        cli,
        ["mcp", "install", "--host", "gemini", "--global", "--subject-id", "dev-1"],
        env={"HOME": str(home)},
    )
    assert res.exit_code == 0, res.output
    written = json.loads((home / ".gemini" / "settings.json").read_text(encoding="utf-8"))
    assert written["mcpServers"]["haki"]["headers"]["X-Haki-Subject-Id"] == "dev-1"
    res = runner.invoke(
        cli,
        ["mcp", "install", "--host", "gemini", "--global", "--subject-id", "dev-1"],
        env={"HOME": str(home)},
    )
    assert "unchanged" in res.output


@pytest.mark.parametrize("host", wiring.HOSTS)
def test_stdio_entries_name_no_variable_the_user_need_not_set(tmp_path: Path, host: str) -> None:
    # A project key fixes the project: an entry naming ${HAKI_PROJECT_ID} would
    # hand the server an unset variable (Claude Code refuses such a config).
    path = wiring.config_path(host, tmp_path, global_=False, home=tmp_path)  # type: ignore[arg-type]
    plain = wiring.plan(wiring.Wiring(host=host, transport="stdio"), path).after  # type: ignore[arg-type]
    if host == "codex":
        # Codex's env_vars only lets a variable through when it is set (an unset one
        # is skipped, as a real codex exec showed): naming it expands nothing.
        assert tomllib.loads(plain)["mcp_servers"]["haki"]["env_vars"] == [
            "HAKI_API_KEY",
            "HAKI_PROJECT_ID",
            "HAKI_SUBJECT_ID",
        ]
        assert "${HAKI_PROJECT_ID}" not in plain
    else:
        assert "HAKI_PROJECT_ID" not in plain
    named = wiring.Wiring(host=host, transport="stdio", project_id="acme")  # type: ignore[arg-type]
    text = wiring.plan(named, path).after
    assert "HAKI_PROJECT_ID" in text and '"acme"' in text and "${HAKI_PROJECT_ID}" not in text


def test_stdio_install_writes_an_absolute_haki_when_it_is_not_on_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    args = ["mcp", "install", "--host", "claude", "--transport", "stdio", "--dir", str(tmp_path)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    command = json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]["haki"]["command"]
    here = Path(sys.executable).parent / "haki"
    assert command == str(here) and Path(command).is_absolute()
    assert "not on PATH" in result.output
    monkeypatch.setenv("PATH", str(here.parent))
    CliRunner().invoke(cli, args)
    assert (
        json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]["haki"]["command"] == "haki"
    )
