"""Split a memory file into frontmatter and body, and parse the frontmatter safely.

PyYAML is imported lazily: a warm ``engram load`` reads the index and never
parses YAML.
"""

from __future__ import annotations

import json
import re

from .errors import FrontmatterError

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from typing import Any

_FENCE = "---"


def split(text: str, path: str) -> tuple[str, str, int]:
    """Return ``(frontmatter, body, body_first_line)``; lines are 1-based."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != _FENCE:
        raise FrontmatterError(path, 1, "missing frontmatter: the file must start with '---'")
    for i in range(1, len(lines)):
        if lines[i].strip() == _FENCE:
            return "".join(lines[1:i]), "".join(lines[i + 1 :]), i + 2
    raise FrontmatterError(path, 1, "unterminated frontmatter: no closing '---'")


def parse(text: str, path: str) -> tuple[dict[str, Any], str, int]:
    """Parse a memory file into ``(fields, body, body_first_line)``."""
    raw, body, body_line = split(text, path)
    return load_yaml_mapping(raw, path, line_offset=1), body, body_line


def load_yaml_mapping(raw: str, path: str, line_offset: int = 0) -> dict[str, Any]:
    """Parse YAML that must be a mapping; ``line_offset`` maps YAML lines to file lines.

    What ``engram add`` and ``engram init`` write (``key: "json string"``, flow lists of
    strings, plain words, dates, one level of nesting) is read without PyYAML: importing
    it costs a cold load more than parsing every memory. Anything else goes to YAML.
    """
    fast = _simple_mapping(raw)
    if fast is not None:
        return fast
    import yaml

    loader = _strict_loader(yaml)(raw)
    try:
        data = loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = (mark.line + 1 if mark else 1) + line_offset
        raise FrontmatterError(path, line, f"invalid YAML: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise FrontmatterError(path, 1 + line_offset, f"invalid YAML: {exc}") from None
    finally:
        loader.dispose()
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise FrontmatterError(path, 1 + line_offset, "frontmatter must be a mapping of fields")
    return {str(k): _plain(v) for k, v in data.items()}


def _plain(value: Any) -> Any:
    # Dates become ISO strings so the index stays JSON and comparisons stay textual.
    import datetime as dt  # with PyYAML only: the simple subset checks dates itself

    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


_KEY_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?:[ ]+(.*?))?[ ]*$")
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*|0|[1-9][0-9]*|[0-9]{4}-[0-9]{2}-[0-9]{2}")
_COMMENT = re.compile(r"[ ]+#.*")
_CONSTANTS: dict[str, Any] = {
    **dict.fromkeys(("true", "True", "TRUE"), True),
    **dict.fromkeys(("false", "False", "FALSE"), False),
    **dict.fromkeys(("null", "Null", "NULL"), None),
}
# YAML 1.1 reads these plain words as booleans: left to PyYAML rather than guessed.
_YAML_BOOLEAN_WORDS = frozenset(
    [
        "y",
        "Y",
        "yes",
        "Yes",
        "YES",
        "n",
        "N",
        "no",
        "No",
        "NO",
        "on",
        "On",
        "ON",
        "off",
        "Off",
        "OFF",
    ]
)
_JSON = json.JSONDecoder()
_NOT_SIMPLE = object()


def _simple_mapping(raw: str) -> dict[str, Any] | None:
    """The mapping, when every line is in the simple subset; else None (YAML decides)."""
    top: dict[str, Any] = {}
    nested: dict[str, Any] | None = None
    for line in raw.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indented = line.startswith("  ")
        if indented and (nested is None or line[2] == " "):
            return None
        match = _KEY_LINE.fullmatch(line[2:] if indented else line)
        if match is None:
            return None
        key, text = match.group(1), match.group(2)
        target = nested if indented else top
        if target is None or key in target:
            return None
        if not indented:
            nested = None
        if text is None or text.startswith("#"):
            if indented:
                return None
            nested = top[key] = {}
            continue
        value = _simple_value(text)
        if value is _NOT_SIMPLE:
            return None
        target[key] = value
    return {k: (None if v == {} else v) for k, v in top.items()}


def _simple_value(text: str) -> Any:
    if text[0] in '"[':
        try:
            value, end = _JSON.raw_decode(text)
        except ValueError:
            return _NOT_SIMPLE
        if text[end:] and not _COMMENT.fullmatch(text[end:]):
            return _NOT_SIMPLE
        if isinstance(value, list) and not all(isinstance(v, str) for v in value):
            return _NOT_SIMPLE
        return value
    word = _COMMENT.sub("", text)
    if word in _CONSTANTS:
        return _CONSTANTS[word]
    if word in _YAML_BOOLEAN_WORDS or not _PLAIN.fullmatch(word):
        return _NOT_SIMPLE
    if word[0].isdigit():
        if "-" not in word:
            return int(word)
        return word if _is_date(word) else _NOT_SIMPLE
    return word


# Days in each month of a common year; February gains one in a leap year.
_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _is_date(word: str) -> bool:
    """Whether ``YYYY-MM-DD`` (digits, as ``_PLAIN`` matched) names a real date, as
    ``datetime.date.fromisoformat`` decides (whose ``isoformat`` gives the same text back):
    checked by hand, since importing ``datetime`` costs a cold load more than its dates."""
    year, month, day = int(word[:4]), int(word[5:7]), int(word[8:10])
    if year < 1 or not 1 <= month <= 12 or day < 1:
        return False
    leap = month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return day <= _MONTH_DAYS[month - 1] + leap


_LOADER_CACHE: dict[str, type] = {}


def _strict_loader(yaml: Any) -> type:
    """A safe loader that also refuses aliases and duplicate keys.

    libyaml's parser (``CSafeLoader``) when PyYAML was built with it: a cold index parses
    every memory's frontmatter, ten times faster than the pure-Python parser.
    """
    if "strict" in _LOADER_CACHE:
        return _LOADER_CACHE["strict"]
    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class StrictLoader(base):  # type: ignore[misc,valid-type]  # PyYAML ships no types
        def get_single_data(self) -> Any:
            node = self.get_single_node()
            if node is None:
                return None
            _refuse_aliases(yaml, node)
            return self.construct_document(node)

        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            seen: set[Any] = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=deep)
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"duplicate key {key!r}", key_node.start_mark
                    )
                seen.add(key)
            return super().construct_mapping(node, deep=deep)

    _LOADER_CACHE["strict"] = StrictLoader
    return StrictLoader


def _refuse_aliases(yaml: Any, root: Any) -> None:
    """An alias is the one node the composer hands out twice (either parser)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            raise yaml.constructor.ConstructorError(
                None, None, "aliases are not allowed in memory frontmatter", node.start_mark
            )
        seen.add(id(node))
        if isinstance(node.value, list):
            for item in node.value:
                stack.extend(item if isinstance(item, tuple) else (item,))
