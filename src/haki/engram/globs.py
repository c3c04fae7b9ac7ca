"""Gitignore-style glob matching for ``applies_to`` without importing pathspec."""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=1024)
def _compile(pattern: str) -> re.Pattern[str]:
    pat = pattern.strip().lstrip("./") if pattern.startswith("./") else pattern.strip().lstrip("/")
    out: list[str] = []
    i = 0
    while i < len(pat):
        ch = pat[i]
        if pat.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pat.startswith("**", i):
            out.append(".*")
            i += 2
        elif ch == "*":
            out.append("[^/]*")
            i += 1
        elif ch == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(ch))
            i += 1
    # A pattern without a slash matches the file name at any depth, as in gitignore.
    prefix = "" if "/" in pat else "(?:.*/)?"
    return re.compile(prefix + "".join(out) + "$")


def matches(pattern: str, path: str) -> bool:
    return _compile(pattern).match(path.lstrip("./") if path.startswith("./") else path) is not None


def specificity(pattern: str) -> float:
    """0 for ``**/*`` up to 1 for a long literal path: how narrowly a glob names its files.

    ``docs/reference/**/*.md`` says more about a file than ``**/*.md``, so a
    path trigger on the former ranks higher.
    """
    literal = sum(len(part) for part in re.split(r"\*+|\?", pattern.strip("./")) if part != "/")
    return min(1.0, literal / 24)
