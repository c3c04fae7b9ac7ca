"""docs/api.md lists every error type the API answers, with its status."""

from __future__ import annotations

import re
from pathlib import Path

from haki import errors

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
# Raised by the HTTP layer itself, not by a class of errors.py.
HTTP_ONLY = {("method_not_allowed", 405)}


def _classes(base: type[errors.HakiError]) -> list[type[errors.HakiError]]:
    out = [base]
    for sub in base.__subclasses__():
        out.extend(_classes(sub))
    return out


def _rows() -> set[tuple[str, int]]:
    pattern = re.compile(r"^\| `([a-z_]+)` \| (\d{3}) \|", re.M)
    return {(code, int(status)) for code, status in pattern.findall(DOC.read_text())}


def test_every_error_type_is_documented_with_its_status():
    expected = {(cls.code, cls.status) for cls in _classes(errors.HakiError)} | HTTP_ONLY
    assert _rows() == expected
