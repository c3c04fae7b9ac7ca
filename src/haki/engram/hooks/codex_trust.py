"""Codex hook trust: the ``[hooks.state]`` entries without which Codex runs no hook.

Codex (0.150 and later) runs a ``hooks.json`` handler only when the user's
``$CODEX_HOME/config.toml`` holds ``[hooks.state."<hooks.json>:<event>:<group>:<handler>"]``
with a ``trusted_hash`` equal to the hash of the handler's normalised identity,
what its ``/hooks`` screen records when the user trusts a hook. ``codex exec``
has no such screen and skips an untrusted hook without a word. Installing
Engram's hooks is the user's decision to trust them, so the install records
that trust for our handlers only, in one marked block, and the status command
checks it.

The identity (read from Codex's ``hooks`` crate, discovery and fingerprint):
``{"event_name": <snake_case event>, "matcher": <matcher, absent for
UserPromptSubmit and Stop>, "hooks": [{"type": "command", "command": ...,
"timeout": <seconds, 600 when unset>, "async": false}]}``, keys sorted,
compact JSON, SHA-256, written ``sha256:<hex>``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tomllib
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..workspace import write_atomic
from .hosts import Host
from .install import is_ours, read_config

_BEGIN = "# >>> engram hook trust (managed by `engram hooks install --host codex`)"
_END = "# <<< engram hook trust"
_BLOCK = re.compile(re.escape(_BEGIN) + r".*?" + re.escape(_END) + r"\n?", re.S)
_NO_MATCHER = frozenset({"UserPromptSubmit", "Stop"})


def codex_home() -> Path:
    return Path(os.environ.get("CODEX_HOME") or Path.home() / ".codex")


def _label(event: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def hook_hash(event: str, matcher: str | None, handler: dict[str, Any]) -> str:
    normalised: dict[str, Any] = {
        "type": "command",
        "command": handler["command"],
        "timeout": max(1, int(handler.get("timeout") or 600)),
        "async": bool(handler.get("async", False)),
    }
    if isinstance(handler.get("statusMessage"), str):
        normalised["statusMessage"] = handler["statusMessage"]
    identity: dict[str, Any] = {"event_name": _label(event), "hooks": [normalised]}
    if matcher is not None and event not in _NO_MATCHER:
        identity["matcher"] = matcher
    raw = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(raw.encode("utf-8")).hexdigest()


def wanted(host: Host, hooks_json: Path) -> dict[str, str]:
    """``{state key: trusted_hash}`` for each of our handlers in ``hooks_json``."""
    hooks = read_config(hooks_json).get("hooks")
    source = str(hooks_json.resolve())
    out: dict[str, str] = {}
    for event, groups in (hooks or {}).items() if isinstance(hooks, dict) else ():
        for g, group in enumerate(groups if isinstance(groups, list) else ()):
            if not isinstance(group, dict):
                continue
            matcher = group.get("matcher") if isinstance(group.get("matcher"), str) else None
            for h, handler in enumerate(group.get("hooks") or ()):
                if is_ours(handler, host.name):
                    key = f"{source}:{_label(event)}:{g}:{h}"
                    out[key] = hook_hash(event, matcher, handler)
    return out


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def _states(text: str, path: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}); fix it first") from exc
    states = data.get("hooks", {}).get("state", {}) if isinstance(data.get("hooks"), dict) else {}
    return states if isinstance(states, dict) else {}


def trust(host: Host, hooks_json: Path, config: Path | None = None) -> tuple[Path, int]:
    """Record trust for our handlers; returns the config file and how many entries it holds."""
    config = config or codex_home() / "config.toml"
    text = _read(config)
    rest = _BLOCK.sub("", text)
    existing = _states(rest, config)
    entries = {
        k: v
        for k, v in wanted(host, hooks_json).items()
        if not (isinstance(existing.get(k), dict) and existing[k].get("trusted_hash") == v)
    }
    clash = [k for k in entries if k in existing]
    if clash:  # the user's own entry for the same key (an old hash): leave it, say so
        raise ConfigError(
            f"{config}: [hooks.state.{json.dumps(clash[0])}] already exists with another "
            "hash; remove it (or trust the hook in codex /hooks), then install again"
        )
    lines = [_BEGIN]
    for key, value in sorted(entries.items()):
        lines += [f"[hooks.state.{json.dumps(key)}]", f"trusted_hash = {json.dumps(value)}"]
    lines.append(_END)
    block = "\n".join(lines) + "\n" if entries else ""
    sep = "" if not rest or rest.endswith("\n\n") or not block else "\n"
    after = rest + sep + block if rest.strip() else block
    _states(after, config)  # never write a file Codex cannot read
    if after != text:
        write_atomic(config, after)
    return config, len(entries)


def untrust(config: Path | None = None) -> bool:
    config = config or codex_home() / "config.toml"
    text = _read(config)
    after = _BLOCK.sub("", text)
    if after == text:
        return False
    write_atomic(config, after)
    return True


def untrusted(host: Host, hooks_json: Path, config: Path | None = None) -> list[str]:
    """Our handlers Codex will skip: no trust entry, or one for an older version of the hook."""
    config = config or codex_home() / "config.toml"
    try:
        states = _states(_read(config), config)
    except ConfigError:
        states = {}
    out = []
    for key, value in wanted(host, hooks_json).items():
        state = states.get(key)
        if not (isinstance(state, dict) and state.get("trusted_hash") == value):
            out.append(key.rsplit(":", 3)[1])
    return out
