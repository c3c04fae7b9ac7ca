"""Does a refactor change what Engram prints? This checkout against a baseline checkout.

Runs ``engram load`` (text, ``--json``, ``--dry-run``, ``--files``, ``--id``), every host's
hook events and the read-only commands on the fixture repositories and their tasks, once
with each checkout's ``src/`` first on ``PYTHONPATH``, and compares exit codes, stdout
and stderr byte for byte. Each side gets the same fresh copies at the same paths, an
empty index cache and an empty memo, and replays the same sequence, so hook session
state builds up alike.

    python bench/engram_same_output.py --baseline ../main [--process 20]

Most runs call ``haki.engram.cli.main`` in one interpreter per side (fast); ``--process N``
also runs N tasks per repository as whole ``engram`` processes. The blind sets are
never read.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
F = REPO / "tests" / "fixtures" / "engram"
SHARED = REPO.parent / "shared" / "data" / "engram-rules" / "corpus"
SHARED_CASES = (
    "dev_cases.json",
    "shared_corpus_cases.json",
    "train3_cases.json",
    "train4_cases.json",
    "train5_cases.json",
)
# Paths a file event names: some match applies_to globs, some match nothing.
PATHS = (
    "src/app/errors.py",
    "src/db/migrations/0001_orders.py",
    "migrations/versions/0002_users.py",
    "tests/test_api.py",
    "infra/main.tf",
    "frontend/src/App.tsx",
    "README.md",
    ".github/workflows/ci.yml",
    "Dockerfile",
)
HOSTS = ("claude", "codex", "gemini", "cursor")
PROMPT_EVENT = {
    "claude": "UserPromptSubmit",
    "codex": "UserPromptSubmit",
    "gemini": "BeforeAgent",
    "cursor": "beforeSubmitPrompt",
}


def workloads() -> list[tuple[str, Path, Path | None, list[str]]]:
    """(name, workspace, global root, tasks) for every fixture repository."""

    def tasks(path: Path) -> list[str]:
        data = json.loads(path.read_text(encoding="utf-8"))
        return [c["query"] for c in (data["cases"] if isinstance(data, dict) else data)]

    out: list[tuple[str, Path, Path | None, list[str]]] = []
    shared = [q for name in SHARED_CASES for q in tasks(F / name)]
    out.append(("shared", SHARED, SHARED / "global", shared))
    corpus = F / "corpus"
    out.append(("fixture", corpus / "workspace", corpus / "global", tasks(F / "cases.json")))
    for folder in ("cases", "cases_train3"):
        for path in sorted((F / "small_repos" / folder).glob("*.json")):
            repo = F / "small_repos" / "repos" / path.stem
            out.append((f"small-{path.stem}", repo, None, tasks(path)))
    return out


def event(host: str, name: str, cwd: Path, session: str, **extra: Any) -> str:
    data = {"session_id": session, "cwd": str(cwd), "hook_event_name": name, **extra}
    return json.dumps(data)


def calls(repo: Path, tasks: list[str]) -> list[tuple[list[str], str | None]]:
    """(argv, stdin) in order, for one repository."""
    out: list[tuple[list[str], str | None]] = [(["index"], None), (["lint"], None)]
    out += [(["graph", "--json"], None), (["verify"], None)]
    for host in HOSTS:
        start = "sessionStart" if host == "cursor" else "SessionStart"
        out.append((["hook", "--host", host], event(host, start, repo, "eq", source="startup")))
    for n, task in enumerate(tasks):
        out.append((["load", "--json", "--", task], None))
        out.append((["load", "--", task], None))
        if n % 4 == 0:
            out.append((["load", "--dry-run", "--", task], None))
            out.append((["load", "--all", "--budget-tokens", "400", "--", task], None))
        for host in HOSTS:
            payload = event(host, PROMPT_EVENT[host], repo, "eq", prompt=task)
            out.append((["hook", "--host", host], payload))
        if n % 5 == 0:
            path = PATHS[n // 5 % len(PATHS)]
            read = {"file_path": str(repo / path)}
            out.append(
                (
                    ["hook", "--host", "claude"],
                    event("claude", "PreToolUse", repo, "eq", tool_name="Read", tool_input=read),
                )
            )
            gem = {"absolute_path": str(repo / path)}
            out.append(
                (
                    ["hook", "--host", "gemini"],
                    event("gemini", "AfterTool", repo, "eq", tool_name="read_file", tool_input=gem),
                )
            )
            patch = {
                "command": f"apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: {path}\nEOF"
            }
            out.append(
                (
                    ["hook", "--host", "codex"],
                    event("codex", "PreToolUse", repo, "eq", tool_name="Bash", tool_input=patch),
                )
            )
            out.append((["load", "--files", path, "--", task], None))
    for path in PATHS:
        out.append((["load", "--files", path], None))
    out.append((["hook", "--host", "claude"], event("claude", "PreCompact", repo, "eq")))
    out.append(
        (
            ["hook", "--host", "claude"],
            event("claude", "SubagentStart", repo, "eq", agent_id="a1", agent_type="Explore"),
        )
    )
    out.append(
        (
            ["hook", "--host", "claude"],
            event("claude", "SessionStart", repo, "eq", source="compact"),
        )
    )
    out.append((["hook", "--host", "gemini"], event("gemini", "PreCompress", repo, "eq")))
    out.append((["hook", "--host", "claude"], "not json"))
    out.append((["load"], None))
    out.append((["load", "--id", "no-such-memory"], None))
    return out


def prepare(name: str, workspace: Path, into: Path) -> Path:
    """A fresh copy of ``workspace``'s memories at a path both sides share."""
    from haki.engram.timing import fresh_copy

    shutil.rmtree(into / name, ignore_errors=True)
    return fresh_copy(workspace, into / name)


def child(into: Path, process: int) -> list[dict[str, Any]]:
    """Run every call in this interpreter (and ``process`` per repository as processes)."""
    from haki.engram import cli

    results: list[dict[str, Any]] = []
    for name, workspace, global_dir, tasks in workloads():
        repo = prepare(name, workspace, into)
        os.environ["ENGRAM_GLOBAL_DIR"] = str(global_dir or into / "no-global")
        os.environ["ENGRAM_CACHE_DIR"] = str(into / "cache" / name)
        os.environ["ENGRAM_MEMO_DIR"] = str(into / "memo")
        os.chdir(repo)
        for argv, stdin in calls(repo, tasks):
            out, err = io.StringIO(), io.StringIO()
            sys.stdin = io.StringIO(stdin or "")
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code: int | str = cli.main(argv)
                except SystemExit as exc:  # argparse errors and --help
                    code = f"exit {exc.code}"
            results.append(
                {
                    "argv": [name, *argv],
                    "stdin": stdin,
                    "code": code,
                    "out": out.getvalue(),
                    "err": err.getvalue(),
                }
            )
        # Whole processes on a second fresh copy: the console entry point as hosts run it.
        repo = prepare(name, workspace, into)
        env = dict(os.environ, ENGRAM_CACHE_DIR=str(into / "cache-process" / name))
        script = Path(sys.executable).parent / "engram"
        for task in tasks[:process]:
            for argv, stdin in (
                (["load", "--", task], None),
                (
                    ["hook", "--host", "claude"],
                    event("claude", "UserPromptSubmit", repo, "p", prompt=task),
                ),
            ):
                done = subprocess.run(
                    [str(script), *argv],
                    cwd=repo,
                    env=env,
                    input=stdin,
                    capture_output=True,
                    text=True,
                )
                results.append(
                    {
                        "argv": ["process", name, *argv],
                        "stdin": stdin,
                        "code": done.returncode,
                        "out": done.stdout,
                        "err": done.stderr,
                    }
                )
    for argv in (["--help"], ["load", "--help"], ["hook", "--help"], ["nope"], ["hook"]):
        done = subprocess.run(
            [str(Path(sys.executable).parent / "engram"), *argv], capture_output=True, text=True
        )
        results.append(
            {
                "argv": ["process", *argv],
                "stdin": None,
                "code": done.returncode,
                "out": done.stdout,
                "err": done.stderr,
            }
        )
    return results


def run_side(src: Path, into: Path, process: int) -> list[dict[str, Any]]:
    env = dict(os.environ, PYTHONPATH=str(src))
    with tempfile.NamedTemporaryFile("r", suffix=".json") as out:
        cmd = [
            sys.executable,
            __file__,
            "--child",
            out.name,
            "--into",
            str(into),
            "--process",
            str(process),
        ]
        subprocess.run(cmd, env=env, check=True)
        return list(json.load(out))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="the checkout to compare with")
    parser.add_argument("--process", type=int, default=10, help="whole-process tasks per repo")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--into", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        results = child(args.into, args.process)
        args.child.write_text(json.dumps(results), encoding="utf-8")
        return 0
    if args.baseline is None:
        parser.error("--baseline is required")
    # The same paths on both sides: outputs may name the repository's location.
    into = Path(tempfile.gettempdir()) / f"engram-same-output-{os.getpid()}"
    sides = [run_side(args.baseline.resolve() / "src", into, args.process)]
    shutil.rmtree(into)
    sides.append(run_side(REPO / "src", into, args.process))
    shutil.rmtree(into)
    base, this = sides
    differ = [b for b, t in zip(base, this, strict=True) if b != t]
    for b in differ[:5]:
        print("differs:", " ".join(b["argv"])[:200])
    hooks = [b for b in base if "hook" in b["argv"]]
    injected = sum(1 for b in hooks if b["out"].strip() not in ("", "{}"))
    print(f"hook answers that inject something: {injected} of {len(hooks)}")
    print(f"outputs compared: {len(base)} (exit code, stdout, stderr each); differ: {len(differ)}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
