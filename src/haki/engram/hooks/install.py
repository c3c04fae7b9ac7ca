"""Merge Engram's hook entries into a host's own configuration file.

The user's entries are never dropped or reordered: ours are recognised by
their command (``… hook --host <name>``), replaced in place when they exist,
appended otherwise, and removed alone on uninstall. A run that changes
nothing leaves the file byte for byte as it was.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..record import Record
from ..workspace import write_atomic
from .hosts import Host

# ``engram hook --host X``, ``/opt/bin/engram hook …``, ``python -m haki.engram.cli hook …``
_OURS = re.compile(r"engram\S*\s+hook\s+--host\s+(\w+)")


class Change(Record):
    path: Path
    changed: bool
    events: tuple[str, ...]


def is_ours(entry: Any, host_name: str) -> bool:
    if not isinstance(entry, dict):
        return False
    command = entry.get("command")
    if not isinstance(command, str):
        return False
    found = _OURS.search(command)
    return found is not None and found.group(1) == host_name


def read_config(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ConfigError(f"{path}: not valid JSON ({exc}); fix it before installing") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a JSON object")
    return data


def install(host: Host, path: Path, command: str, path_rules: str) -> Change:
    before = _existing_text(path)
    data = read_config(path)
    if host.name == "cursor" and "version" not in data:
        data = {"version": 1, **data}
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise ConfigError(f"{path}: 'hooks' must be an object")
    wanted = {r.event: r for r in host.registrations(path_rules)}
    for event in list(hooks):
        if event not in wanted:
            _remove_ours(hooks, event, host)
    for event, reg in wanted.items():
        entries = hooks.setdefault(event, [])
        if not isinstance(entries, list):
            raise ConfigError(f"{path}: hooks.{event} must be a list")
        _place(entries, host, command, reg.matcher)
    return _write(path, data, before, tuple(wanted))


def uninstall(host: Host, path: Path) -> Change:
    before = _existing_text(path)
    if before is None:
        return Change(path, False, ())
    data = read_config(path)
    hooks = data.get("hooks")
    removed: list[str] = []
    if isinstance(hooks, dict):
        for event in list(hooks):
            if _remove_ours(hooks, event, host):
                removed.append(event)
        if not hooks and removed:
            del data["hooks"]
    return _write(path, data, before, tuple(removed))


def installed_events(host: Host, path: Path) -> tuple[str, ...]:
    try:
        hooks = read_config(path).get("hooks")
    except ConfigError:
        return ()
    if not isinstance(hooks, dict):
        return ()
    return tuple(
        event
        for event, entries in hooks.items()
        if isinstance(entries, list) and any(_group_is_ours(e, host) for e in entries)
    )


def installed_command(host: Host, path: Path) -> str | None:
    """The command our first entry runs, as the host will run it."""
    try:
        hooks = read_config(path).get("hooks")
    except ConfigError:
        return None
    for entries in (hooks or {}).values() if isinstance(hooks, dict) else ():
        for entry in entries if isinstance(entries, list) else ():
            for handler in _handlers(entry, host):
                if is_ours(handler, host.name):
                    return str(handler["command"])
    return None


def _handlers(entry: Any, host: Host) -> list[Any]:
    if host.nested and isinstance(entry, dict) and isinstance(entry.get("hooks"), list):
        return list(entry["hooks"])
    return [entry]


def _group_is_ours(entry: Any, host: Host) -> bool:
    return any(is_ours(h, host.name) for h in _handlers(entry, host))


def _place(entries: list[Any], host: Host, command: str, matcher: str | None) -> None:
    handler = host.handler(command)
    if host.nested:
        group: dict[str, Any] = {} if matcher is None else {"matcher": matcher}
        group["hooks"] = [handler]
        new: Any = group
    else:
        new = {**handler, **({"matcher": matcher} if matcher else {})}
    for i, entry in enumerate(entries):
        if not _group_is_ours(entry, host):
            continue
        handlers = _handlers(entry, host)
        if host.nested and len(handlers) > 1:
            # Our handler shares a group with the user's: update it there.
            for j, h in enumerate(handlers):
                if is_ours(h, host.name):
                    entry["hooks"][j] = handler
            return
        entries[i] = new
        return
    entries.append(new)


def _remove_ours(hooks: dict[str, Any], event: str, host: Host) -> bool:
    entries = hooks.get(event)
    if not isinstance(entries, list):
        return False
    kept: list[Any] = []
    removed = False
    for entry in entries:
        if not _group_is_ours(entry, host):
            kept.append(entry)
            continue
        removed = True
        handlers = _handlers(entry, host)
        others = [h for h in handlers if not is_ours(h, host.name)]
        if host.nested and others:
            kept.append({**entry, "hooks": others})
    if removed:
        if kept:
            hooks[event] = kept
        else:
            del hooks[event]
    return removed


def _existing_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def _write(path: Path, data: dict[str, Any], before: str | None, events: tuple[str, ...]) -> Change:
    after = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if before is not None and _same(before, data):
        return Change(path, False, events)
    if before is None and not data:
        return Change(path, False, events)
    write_atomic(path, after)
    return Change(path, True, events)


def _same(before: str, data: dict[str, Any]) -> bool:
    try:
        return bool(json.loads(before) == data) if before.strip() else not data
    except ValueError:
        return False
