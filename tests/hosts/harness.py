"""The real agent hosts, installed from npm and pointed at the scripted model server.

Each CLI is installed once under the user's cache directory (``$XDG_CACHE_HOME``
or ``~/.cache``, ``haki/hosts/``; ``HAKI_HOSTS_CACHE`` overrides it), keyed by
its pinned version, behind a file lock, like the gethaki compat virtualenv.
Every run gets its own ``HOME`` so a host's user settings, sessions and trust
never leak between tests or from the machine.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from model_server import ModelServer

from haki.engram.semantic import table_dir

PACKAGES = {
    "claude": ("@anthropic-ai/claude-code", "2.1.197", "claude"),
    "codex": ("@openai/codex", "0.171.0", "codex"),
    "gemini": ("@google/gemini-cli", "0.61.0", "gemini"),
}
RUN_TIMEOUT = 180
BIN = Path(sys.executable).parent


def cache_dir() -> Path:
    if os.environ.get("HAKI_HOSTS_CACHE"):
        return Path(os.environ["HAKI_HOSTS_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "haki" / "hosts"


def host_binary(host: str) -> Path:
    """The pinned CLI, installed from the npm registry on first use."""
    package, version, command = PACKAGES[host]
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    prefix = cache / f"{package.split('/')[-1]}-{version}"
    binary = prefix / "node_modules" / ".bin" / command
    ready = prefix / ".installed"
    with (cache / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (ready.exists() and binary.exists()):
            npm = shutil.which("npm")
            if npm is None:
                pytest.exit(
                    f"real-host tests need npm to install {package}@{version}", returncode=1
                )
            prefix.mkdir(parents=True, exist_ok=True)
            done = subprocess.run(
                [
                    npm,
                    "install",
                    "--prefix",
                    str(prefix),
                    "--no-audit",
                    "--no-fund",
                    "--loglevel=error",
                    f"{package}@{version}",
                ],
                capture_output=True,
                text=True,
                timeout=900,
            )
            if done.returncode != 0:
                said = [
                    line
                    for line in done.stderr.splitlines()
                    if line.strip() not in ("", "npm error") and "complete log" not in line
                ]
                last = said[0] if said else "no output"
                # One line, and the whole stage stops: never a silent skip.
                pytest.exit(
                    f"cannot install {package}@{version} from the npm registry "
                    f"(npm exited {done.returncode}: {last})",
                    returncode=1,
                )
            ready.write_text(f"{package}@{version}\n")
    return binary


def memory(repo: Path, id: str, type: str, directive: str, tags: list[str], body: str,
           applies_to: list[str] | None = None) -> None:  # fmt: skip
    folder = {"rule": "rules", "skill": "skills", "knowledge": "knowledge"}[type]
    path = repo / ".agents" / "engram" / folder / f"{id}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    head = ["---", f"id: {id}", f"type: {type}", f"directive: {json.dumps(directive)}"]
    head.append(f"tags: {json.dumps(tags)}")
    if applies_to:
        head.append(f"applies_to: {json.dumps(applies_to)}")
    path.write_text("\n".join([*head, "---", "", f"# {id}", "", "## Content", "", body, ""]))


# The markers each memory's body carries, so a test can count what the model received.
BILLING = "BODY-BILLING-4c2"  # routed at session start (the repository is billing-service)
PAGINATION = "BODY-PAGINATION-7f3"  # routed by prompts about cursor pagination
MIGRATIONS = "BODY-MIGRATIONS-91c"  # applies_to migrations/**
DEPLOY = "BODY-DEPLOY-5e1"  # routed by the subagent's task


@dataclass
class Run:
    session: str
    stdout: str
    stderr: str


@dataclass
class Workspace:
    """A repository with memories, its own HOME, and one host to run in it."""

    root: Path
    host: str
    model: ModelServer
    env: dict[str, str] = field(default_factory=dict)

    @property
    def repo(self) -> Path:
        return self.root / "billing-service"

    @property
    def home(self) -> Path:
        return self.root / "home"

    @classmethod
    def create(cls, root: Path, host: str, model: ModelServer) -> Workspace:
        ws = cls(root, host, model)
        repo = ws.repo
        repo.mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        memory(repo, "billing-ledger", "knowledge",
               "The billing service keeps a double-entry ledger.", ["billing", "ledger"],
               f"- {BILLING}: every charge writes two ledger rows.")  # fmt: skip
        memory(repo, "api-cursor-pagination", "rule",
               "Paginate list endpoints with opaque cursors.", ["pagination", "cursor", "api"],
               f"- {PAGINATION}: never expose offsets; cursors are opaque.")  # fmt: skip
        memory(repo, "migrations-safe", "rule", "Every migration ships with a downgrade.",
               ["migrations", "downgrade"], f"- {MIGRATIONS}: test the downgrade locally.",
               ["migrations/**"])  # fmt: skip
        memory(repo, "release-deploy", "skill", "Deploy a release with the checklist.",
               ["deploy", "release", "checklist"], f"- {DEPLOY}: tag, build, canary, promote.")  # fmt: skip
        (repo / "migrations").mkdir()
        (repo / "migrations" / "0001_init.sql").write_text("create table t(id int);\n")
        ws.home.mkdir()
        ws.env = {
            "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
            "HOME": str(ws.home),
            "LANG": "C.UTF-8",
            "ENGRAM_CACHE_DIR": str(root / "engram-cache"),
            "ENGRAM_GLOBAL_DIR": str(root / "engram-global"),
            # The static table `make install` distilled, found from this process's
            # HOME: the hosts' own HOME is a fresh folder, where `engram index`
            # would otherwise distil it again (minutes) inside a hook's deadline.
            "ENGRAM_MODEL_DIR": str(table_dir()),
            "NO_COLOR": "1",
            # Claude Code
            "ANTHROPIC_BASE_URL": model.url,
            "ANTHROPIC_API_KEY": "sk-ant-test",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "IS_SANDBOX": "1",  # lets --dangerously-skip-permissions run as root in CI
            # Codex
            "CODEX_HOME": str(ws.home / ".codex"),
            # Gemini CLI
            "GOOGLE_GEMINI_BASE_URL": model.url,
            "GEMINI_API_KEY": "test-key",
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
        }
        if os.environ.get("PYTHONPATH"):
            # The hooks and MCP servers the hosts start run the tree under test.
            ws.env["PYTHONPATH"] = os.environ["PYTHONPATH"]
        ws._host_settings()
        return ws

    def _host_settings(self) -> None:
        if self.host == "codex":
            codex = self.home / ".codex"
            codex.mkdir()
            (codex / "config.toml").write_text(
                "\n".join(
                    [
                        'model = "gpt-5.1-codex"',
                        'model_provider = "scripted"',
                        "[model_providers.scripted]",
                        'name = "scripted"',
                        f'base_url = "{self.model.url}/v1"',
                        'wire_api = "responses"',
                        "[analytics]",
                        "enabled = false",
                        f'[projects."{self.repo}"]',
                        'trust_level = "trusted"',
                        "",
                    ]
                )
            )
        if self.host == "gemini":
            settings = {
                "security": {"auth": {"selectedType": "gemini-api-key"}},
                "privacy": {"usageStatisticsEnabled": False},
                "telemetry": {"enabled": False},
                "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
            }
            (self.home / ".gemini").mkdir()
            (self.home / ".gemini" / "settings.json").write_text(json.dumps(settings))

    # -- engram ------------------------------------------------------------------------------

    def engram(self, *args: str) -> str:
        done = subprocess.run(
            [str(BIN / "engram"), *args],
            cwd=self.repo,
            env={**os.environ, **self.env},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout + done.stderr

    def install_hooks(self) -> str:
        self.engram("index")
        return self.engram("hooks", "install", "--host", self.host, "--command", self.command)

    @property
    def command(self) -> str:
        return str(BIN / "engram")

    # -- the host ----------------------------------------------------------------------------

    def run(self, *prompts: str, resume: str | None = None, extra: tuple[str, ...] = ()) -> Run:
        """Run the host non-interactively; several prompts share one process where it can."""
        binary = str(host_binary(self.host))
        stdin: str | None = None
        if self.host == "claude":
            args = [binary, "-p", "--dangerously-skip-permissions", "--verbose"]
            args += ["--output-format", "stream-json", "--input-format", "stream-json"]
            if resume:
                args += ["--resume", resume]
            stdin = "".join(
                json.dumps({"type": "user", "message": {"role": "user", "content": p}}) + "\n"
                for p in prompts
            )
        elif self.host == "codex":
            assert len(prompts) == 1, "codex exec takes one prompt per process"
            args = [binary, "exec", "--skip-git-repo-check", "--json", *extra]
            args += ["resume", resume, prompts[0]] if resume else [prompts[0]]
            extra = ()
        else:
            assert len(prompts) == 1, "gemini -p takes one prompt per process"
            args = [binary, "-y", "--output-format", "json", "-p", prompts[0]]
            if resume:  # each workspace has its own HOME: its latest session is ours
                args += ["--resume", "latest"]
        done = subprocess.run(
            [*args, *extra],
            cwd=self.repo,
            env=self.env,
            input=stdin,
            stdin=None if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
        )
        assert done.returncode == 0, f"{self.host} exited {done.returncode}:\n{done.stderr[-3000:]}"
        return Run(_session_id(self.host, done.stdout), done.stdout, done.stderr)

    # -- what the model received -------------------------------------------------------------

    def conversation(self, marker: str) -> str:
        """The last (longest) request holding ``marker``: the whole conversation so far."""
        hits = self.model.model_requests(marker)
        assert hits, f"no model request held {marker!r}"
        return max((r.text for r in hits), key=len)

    def injected(self, marker: str) -> list[str]:
        """Every string the model received that holds ``marker``."""
        out: list[str] = []
        for request in self.model.model_requests(marker):
            out += [s for s in _strings(request.body) if marker in s]
        return out


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value.replace("\\u003c", "<").replace("\\u003e", ">")]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _session_id(host: str, stdout: str) -> str:
    for line in stdout.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict):
            if host == "codex" and event.get("type") == "thread.started":
                return str(event["thread_id"])
            if host == "claude" and event.get("session_id"):
                return str(event["session_id"])
    if host == "gemini":
        return str(json.loads(stdout)["session_id"])
    raise AssertionError(f"no session id in {host}'s output:\n{stdout[-2000:]}")
