"""The agent-visible part of a memory file, extracted without parsing YAML."""

from __future__ import annotations

import re

_FENCE = "---"
# Sections written for humans; agents only ever see ``## Content``.
HIDDEN_SECTIONS = ("context", "example", "examples", "origin")
_HEADING = re.compile(r"^(#{1,2})\s+(.*?)\s*#*\s*$")


def body_of(text: str) -> str:
    """The text after the closing frontmatter fence."""
    if not text.startswith(_FENCE):
        return text
    end = text.find("\n---", 3)
    if end < 0:
        return ""
    nl = text.find("\n", end + 4)
    return "" if nl < 0 else text[nl + 1 :]


def sections(body: str) -> tuple[str, str]:
    """Return ``(title, content)``: the ``# Title`` and the agent-visible text.

    The content is the ``## Content`` section; a body without one shows every
    part that is not a hidden section, so hand-written files still route.
    """
    title = ""
    current: str | None = None
    parts: dict[str, list[str]] = {}
    fence = False
    for line in body.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        # The pattern is anchored on "#": other lines need not run it.
        m = None if fence or not line.startswith("#") else _HEADING.match(line)
        if m and m.group(1) == "#" and not title and current is None:
            title = m.group(2)
            continue
        if m and m.group(1) == "##":
            current = m.group(2).strip().lower()
            continue
        parts.setdefault(current or "", []).append(line)
    if "content" in parts:
        chosen = parts["content"]
    else:
        chosen = [
            line for name, lines in parts.items() if name not in HIDDEN_SECTIONS for line in lines
        ]
    return title, "\n".join(chosen).strip("\n")


LEVELS = ("foundation", "intermediate", "advanced")


def level_rank(level: str) -> int:
    """Foundations first: named levels map to 0..2, integers keep their value."""
    if level in LEVELS:
        return LEVELS.index(level)
    try:
        return int(level)
    except ValueError:
        return 1
