"""Every test runs in exactly one stage of .ci/run, and .ci/run runs every stage.

A stage is a ``make`` target whose recipe runs pytest. Its tests are the files
under its paths (``tests`` when it names none) minus its ``--ignore`` paths,
cut by its ``-m`` marker expression. Two stages may share files only when
their marker expressions are ``M`` and ``not M`` for one marker: then each test
is in one of the two, whatever its marks.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"
# pytest options followed by a value that is not a path.
VALUED = {"-p", "-k", "-o", "-c", "--durations", "--deselect"}


@dataclass(frozen=True)
class Stage:
    target: str
    paths: tuple[str, ...]
    ignores: tuple[str, ...]
    marker: str | None

    def holds(self, path: Path) -> bool:
        rel = path.relative_to(REPO).as_posix()
        inside = any(rel == p or rel.startswith(p.rstrip("/") + "/") for p in self.paths)
        ignored = any(rel == p or rel.startswith(p.rstrip("/") + "/") for p in self.ignores)
        return inside and not ignored


def _variables(makefile: str) -> dict[str, str]:
    return dict(re.findall(r"^([A-Z_]+)\s*:=\s*(.*)$", makefile, re.M))


def stages(makefile: str | None = None) -> dict[str, Stage]:
    """The Makefile's targets whose recipe runs pytest, with their selection."""
    text = makefile if makefile is not None else (REPO / "Makefile").read_text()
    variables = _variables(text)
    found: dict[str, Stage] = {}
    for target, recipe in re.findall(r"^([a-z-]+):[^\n]*\n((?:\t[^\n]*\n)+)", text, re.M):
        for line in recipe.splitlines():
            if "-m pytest" not in line:
                continue
            line = re.sub(r"\$\(([A-Z_]+)\)", lambda m: variables.get(m.group(1), ""), line)
            words = shlex.split(line.split("-m pytest", 1)[1])
            paths: list[str] = []
            ignores: list[str] = []
            marker = None
            i = 0
            while i < len(words):
                word = words[i]
                if word == "-m":
                    marker, i = words[i + 1], i + 2
                    continue
                if word in VALUED:
                    i += 2
                    continue
                if word.startswith("--ignore="):
                    ignores.append(word.split("=", 1)[1])
                elif not word.startswith("-"):
                    paths.append(word)
                i += 1
            found[target] = Stage(target, tuple(paths or ["tests"]), tuple(ignores), marker)
    return found


def collected_files() -> list[Path]:
    return sorted(
        p for p in TESTS.rglob("test_*.py") if "fixtures" not in p.relative_to(TESTS).parts
    )


def _complementary(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and (a == f"not {b}" or b == f"not {a}")


def owners(all_stages: dict[str, Stage], path: Path) -> list[str]:
    return sorted(name for name, stage in all_stages.items() if stage.holds(path))


def ci_stages() -> dict[str, Stage]:
    """The stages: the targets .ci/run calls. (`make check` runs the layer
    test once more as a static gate, before `make test`.)"""
    run = (REPO / ".ci" / "run").read_text()
    called = re.findall(r"^make ([a-z-]+)\s*$", run, re.M)
    assert called and called[0] == "test", "the README's command comes first"
    every = stages()
    missing = [name for name in called if name not in every]
    assert missing == [], f".ci/run calls targets that run no pytest: {missing}"
    return {name: every[name] for name in called}


def test_ci_runs_the_documented_stages() -> None:
    assert list(ci_stages()) == ["test", "slow", "faults", "hosts"]


def test_every_test_file_is_in_one_stage_or_split_by_a_marker() -> None:
    all_stages = ci_stages()
    problems = []
    for path in collected_files():
        names = owners(all_stages, path)
        if len(names) == 1 and all_stages[names[0]].marker is None:
            continue
        if len(names) == 2 and _complementary(*(all_stages[n].marker for n in names)):
            continue
        problems.append(f"{path.relative_to(REPO)}: {names or 'no stage'}")
    assert problems == [], "\n".join(problems)


def test_the_marker_that_splits_stages_is_registered_and_strict() -> None:
    # A misspelt mark (`@pytest.mark.slwo`) would otherwise put a slow test in
    # `make test` silently; --strict-markers makes it a collection error.
    pytest_ini = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["pytest"][
        "ini_options"
    ]
    assert "--strict-markers" in pytest_ini["addopts"].split()
    registered = {m.split(":")[0].strip() for m in pytest_ini["markers"]}
    for stage in ci_stages().values():
        if stage.marker:
            assert stage.marker.removeprefix("not ") in registered, stage


def test_the_check_catches_a_stage_that_leaves_a_file_out() -> None:
    # The same checks over a Makefile where `make test` ignores tests/install
    # and no stage picks it up: the fresh-venv tests would run nowhere.
    broken = (
        (REPO / "Makefile")
        .read_text()
        .replace("STAGE_ARGS := ", "STAGE_ARGS := --ignore=tests/install ")
    )
    all_stages = {k: v for k, v in stages(broken).items() if k in ci_stages()}
    install = TESTS / "install" / "test_fresh_venv.py"
    assert owners(all_stages, install) == []
    # And one where `make slow` loses its marker: its files are then in two stages.
    doubled = stages((REPO / "Makefile").read_text().replace("-m slow ", ""))
    doubled = {k: v for k, v in doubled.items() if k in ci_stages()}
    unit = TESTS / "unit" / "test_stages.py"
    assert owners(doubled, unit) == ["slow", "test"]
    assert not _complementary(doubled["slow"].marker, doubled["test"].marker)
