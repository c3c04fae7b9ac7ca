"""Write (or check) the expected ``<haki_memory>`` blocks of tests/fixtures/render/.

Each ``NAME.json`` holds ``{"packet": ..., "subject_id"?: ...}``; its
``NAME.txt`` is what the Python SDK's ``render`` makes of it. The Python
test (tests/unit/client/test_render_goldens.py) and the TypeScript SDK's
test (sdk/typescript/test/render.test.mjs) both compare their renderer to
these files, so the two SDKs cannot drift apart unnoticed.

    python scripts/render_goldens.py          # rewrite the .txt files
    python scripts/render_goldens.py --check  # exit 1 if one is stale
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from haki.client import render

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "render"


def expected(case_file: Path) -> str:
    case = json.loads(case_file.read_text(encoding="utf-8"))
    return render(case["packet"], subject_id=case.get("subject_id"))


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for case_file in sorted(FIXTURES.glob("*.json")):
        block_file = case_file.with_suffix(".txt")
        block = expected(case_file)
        if check:
            if not block_file.exists() or block_file.read_text(encoding="utf-8") != block:
                stale.append(block_file.name)
        else:
            block_file.write_text(block, encoding="utf-8")
    for name in stale:
        print(f"stale: {name}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
