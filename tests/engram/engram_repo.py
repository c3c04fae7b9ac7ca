"""A throwaway Engram repository for tests: memory files written from fields.

Its own module, named so no other test folder has one like it: test files
import ``Repo`` from here, never from ``conftest``, which names a different
module in every folder.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from haki.engram.workspace import Roots, locate


def memory_text(
    id: str, type: str = "rule", directive: str = "", content: str = "", **fields: Any
) -> str:
    lines = ["---", f"id: {id}", f"type: {type}"]
    fields.setdefault("directive", directive or f"Follow the {id} convention.")
    for key, value in fields.items():
        lines.append(
            f"{key}: {json.dumps(value) if not isinstance(value, str) or key != 'raw' else value}"
        )
    lines += [
        "---",
        "",
        f"# {id}",
        "",
        "## Content",
        "",
        content or f"- Body of {id}.",
        "",
        "## Context",
        "",
        "Hidden context line.",
        "",
        "## Origin",
        "",
        "- hidden origin",
        "",
    ]
    return "\n".join(lines)


class Repo:
    def __init__(self, root: Path) -> None:
        self.root = root
        (root / ".git").mkdir(parents=True, exist_ok=True)
        self.engram = root / ".agents" / "engram"
        self.global_dir = root.parent / "global"

    def add(
        self,
        id: str,
        type: str = "rule",
        where: str = "workspace",
        folder: str | None = None,
        **fields: Any,
    ) -> Path:
        base = self.engram if where == "workspace" else self.global_dir
        folder = folder or {"rule": "rules", "skill": "skills", "knowledge": "knowledge"}[type]
        path = base / folder / f"{id}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(memory_text(id, type, **fields), encoding="utf-8")
        return path

    def roots(self) -> Roots:
        return locate(self.root, self.global_dir)
