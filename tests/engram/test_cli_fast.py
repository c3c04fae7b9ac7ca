"""``engram load`` / ``engram hook`` read without argparse, and the ``Record`` value types."""

from __future__ import annotations

import copy
import dataclasses
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from haki.engram.cli import fast_args
from haki.engram.cli_parser import build_parser, parse
from haki.engram.record import Record, as_dict, field, field_names, replace

FORMS = [
    ["load", "--", "write a migration"],
    ["load", "write", "a", "migration"],
    ["load", "--json", "--", "x y"],
    ["load", "fix", "it", "--json", "--dry-run"],
    ["load", "--files", "a.py", "b.py", "--", "fix"],
    ["load", "--files", "a.py", "fix", "it"],
    ["load", "--role", "dev", "--role", "ops", "task"],
    ["load", "--limit", "3", "--budget-tokens=400", "--expand-top", "0", "q"],
    ["load", "-C", "/tmp", "--global-dir", "g", "--no-global", "q"],
    ["load", "--id", "a,b"],
    ["load", "--disclosure", "full", "--all", "--full", "q"],
    ["load", "--json"],
    ["load"],
    ["load", "--", "--json", "-x"],
    ["hook", "--host", "claude"],
    ["hook", "--host=codex", "--no-global"],
    ["hook", "--workspace=/w", "--host", "gemini"],
]
# Forms argparse must read: an error to report, help, an abbreviation, a second query.
REFUSED = [
    ["load", "a", "--json", "b"],
    ["load", "--limit", "0", "q"],
    ["load", "--limit", "x", "q"],
    ["load", "--disclosure", "some", "q"],
    ["load", "--jso", "q"],
    ["load", "--help"],
    ["load", "-h"],
    ["load", "--json=yes"],
    ["load", "--workspace="],
    ["load", "--files", "--", "q"],
    ["load", "--id"],
    ["load", "a", "--", "b"],
    ["load", "--", "a", "--", "b"],
    ["load", "-5"],
    ["hook"],
    ["hook", "--host", "vim"],
    ["hook", "--host", "claude", "extra"],
    ["index"],
    [],
]


def _argparse(argv: list[str]) -> dict[str, Any] | None:
    try:
        return vars(parse(argv, argv[0] if argv else None))
    except SystemExit:
        return None


@pytest.mark.parametrize("argv", FORMS, ids=" ".join)
def test_fast_reading_matches_argparse(argv: list[str]) -> None:
    fast = fast_args(argv)
    assert fast is not None
    assert vars(fast) == _argparse(argv)


@pytest.mark.parametrize("argv", REFUSED, ids=lambda a: " ".join(a) or "(none)")
def test_forms_argparse_must_read_are_left_to_it(argv: list[str]) -> None:
    assert fast_args(argv) is None


def test_random_forms_agree_with_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    """Whenever the fast reading answers, argparse accepts the same words and makes the
    same namespace of them."""
    pool = [
        "--", "--json", "--dry-run", "--all", "--files", "--limit", "--limit=2", "--role",
        "--id", "-C", "--no-global", "--disclosure", "--budget-tokens", "--host", "claude",
        "auto", "3", "0", "-1", "fix", "the bug", "src/a.py", "", "-x", "--expand-top",
    ]  # fmt: skip
    rng = random.Random(40)
    answered = 0
    for _ in range(3000):
        argv = [rng.choice(["load", "hook"]), *rng.choices(pool, k=rng.randint(0, 6))]
        fast = fast_args(argv)
        if fast is None:
            continue
        answered += 1
        assert vars(fast) == _argparse(argv), argv
    capsys.readouterr()
    assert answered > 300


def test_every_hot_option_is_read_or_refused() -> None:
    """An option added to ``load`` or ``hook`` in ``cli_parser`` and not to the fast table
    is left to argparse, and its default still reaches the command."""
    for command in ("load", "hook"):
        sub = build_parser(command)._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr, index]
        argv = [command, "--host", "claude"] if command == "hook" else [command, "q"]
        assert set(vars(fast_args(argv) or object())) == set(vars(sub.parse_args(argv[1:]))) | {
            "command",
            "func",
        }


def test_load_and_hook_import_no_argparse_dataclasses_or_typing(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    env = dict(os.environ, ENGRAM_CACHE_DIR=str(tmp_path / "c"), ENGRAM_GLOBAL_DIR=str(tmp_path))
    script = (
        "import sys\n"
        "from haki.engram.cli import main\n"
        "sys.stdin = __import__('io').StringIO("
        '\'{"session_id": "s", "hook_event_name": "UserPromptSubmit", "prompt": "x"}\')\n'
        "main(sys.argv[1:])\n"
        "print(sorted(m for m in ('argparse', 'dataclasses', 'inspect', 'typing') if m in sys.modules),"
        " file=sys.stderr)\n"
    )
    for argv in (["load", "--", "write a migration"], ["hook", "--host", "claude"]):
        done = subprocess.run(
            [sys.executable, "-c", script, *argv],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.stderr.strip().splitlines()[-1] == "[]", done.stderr


class Point(Record):
    x: int
    label: str = "p"
    tags: tuple[str, ...] = field(default_factory=tuple)


class Tally(Record, frozen=False):
    seen: list[str] = field(default_factory=list)
    total: int = 0


@dataclasses.dataclass(frozen=True)
class _PointDC:
    x: int
    label: str = "p"
    tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)


def test_record_behaves_as_a_frozen_dataclass() -> None:
    a = Point(1)
    assert (a.x, a.label, a.tags) == (1, "p", ())
    assert Point(1, tags=("t",)).tags == ("t",) and Tally().seen is not Tally().seen
    assert a == Point(1, "p", ()) and a != Point(2) and hash(Point(1, "q")) == hash(Point(1, "q"))
    assert repr(Point(1, "a", ("t",))) == repr(_PointDC(1, "a", ("t",))).replace(
        "_PointDC", "Point"
    )
    assert not hasattr(a, "__dict__") and field_names(Point) == ("x", "label", "tags")
    with pytest.raises(AttributeError):
        a.x = 2  # type: ignore[misc]
    with pytest.raises(TypeError, match="missing"):
        Point()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected or repeated"):
        Point(1, x=2)  # type: ignore[misc]
    with pytest.raises(TypeError, match="positional"):
        Point(1, "a", (), 4)  # type: ignore[call-arg]
    assert replace(a, label="b") == Point(1, "b") and a.label == "p"
    nested = Point(1, tags=(Point(2),))  # type: ignore[arg-type]
    assert as_dict(nested) == dataclasses.asdict(_PointDC(1, tags=(_PointDC(2),)))  # type: ignore[arg-type]
    assert copy.copy(a) == a and copy.deepcopy(nested) == nested
    assert pickle.loads(pickle.dumps(Point(3, "z"))) == Point(3, "z")


def test_record_may_be_mutable() -> None:
    t = Tally()
    t.seen.append("a")
    t.total = 2
    assert t == Tally(["a"], 2) and Tally().seen == []
    with pytest.raises(TypeError):
        hash(t)
