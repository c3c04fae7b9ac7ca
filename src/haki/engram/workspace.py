"""Where memories live: roots, the config file, ignore rules and cache paths.

This is the only module that reads the environment (``ENGRAM_GLOBAL_DIR``,
``ENGRAM_CACHE_DIR``, ``ENGRAM_MEMO_DIR``, ``HOME``), apart from the static table's
``ENGRAM_MODEL_DIR`` (``semantic``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from .errors import ConfigError
from .record import Record, field
from .sha import sha256_hex

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from typing import Any, Literal

    Disclosure = Literal["auto", "full"]
    HookRead = Literal["startup", "auto", "always", "off"]
    PathRules = Literal["native", "hooks"]

WORKSPACE_DIR = Path(".agents") / "engram"
SUBDIRS = ("rules", "skills", "knowledge", "archive")
CONFIG_NAME = "config.yaml"
IGNORE_NAME = ".engramignore"
LOCK_NAME = "engram.lock.json"
HOOK_READ_MODES = ("startup", "auto", "always", "off")
PATH_RULES_MODES = ("native", "hooks")


class Root(Record):
    """A memory root: ``path`` holds the files, ``base`` is where ``sources`` resolve."""

    scope: Literal["workspace", "global"]
    path: Path
    base: Path

    @property
    def lock_path(self) -> Path:
        return self.path / LOCK_NAME

    @property
    def ignore_path(self) -> Path:
        return self.path / IGNORE_NAME


class LoadSettings(Record):
    """``load`` settings from ``config.yaml``."""

    disclosure: Disclosure = "auto"
    expand_top: int = 3
    limit: int = 8


class HookSettings(Record):
    """``hooks.read``: when hooks inject; ``hooks.path_rules``: how path-scoped memories load.

    ``native`` writes rule files the host reads by itself (Claude, Cursor);
    ``hooks`` injects them from file events instead.
    """

    read: HookRead = "auto"
    path_rules: PathRules = "native"


class Config(Record):
    """The workspace's ``config.yaml``, with defaults for what it leaves out."""

    load: LoadSettings = field(default_factory=LoadSettings)
    roles: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    use_global: bool = True
    hooks: HookSettings = field(default_factory=HookSettings)


class Roots(Record):
    """The workspace root, the global root when enabled, and the config."""

    workspace: Root
    global_: Root | None
    config: Config
    config_path: Path

    def all(self) -> tuple[Root, ...]:
        return (self.workspace,) if self.global_ is None else (self.workspace, self.global_)


def find_repo_root(start: Path) -> Path:
    """Nearest ancestor holding ``.agents/engram`` (else ``.git``); ``start`` if neither."""
    start = start.resolve()
    for marker in (WORKSPACE_DIR, Path(".git")):
        for candidate in (start, *start.parents):
            if (candidate / marker).exists():
                return candidate
    return start


def default_global_dir() -> Path:
    env = os.environ.get("ENGRAM_GLOBAL_DIR")
    return Path(env).expanduser() if env else Path.home() / ".engram"


def locate(
    start: Path | None = None,
    global_dir: Path | None = None,
    use_global: bool | None = None,
) -> Roots:
    repo = find_repo_root(start or Path.cwd())
    workspace = Root("workspace", repo / WORKSPACE_DIR, repo)
    config_path = workspace.path / CONFIG_NAME
    config = read_config(config_path, cache_dir(workspace))
    enabled = config.use_global if use_global is None else use_global
    gdir = (global_dir or default_global_dir()).expanduser().resolve()
    global_ = Root("global", gdir, gdir) if enabled and gdir != workspace.path.resolve() else None
    return Roots(workspace, global_, config, config_path)


def cache_dir(root: Root) -> Path:
    """Where the index and usage log live.

    ``<root>/.cache`` only when it already exists (``engram init`` creates it
    and git-ignores it); otherwise the user cache, so loading a checkout or a
    shared corpus never writes into it.
    """
    env = os.environ.get("ENGRAM_CACHE_DIR")
    digest = sha256_hex(str(root.path.resolve()).encode())[:16]
    if env:
        return Path(env).expanduser() / digest
    local = root.path / ".cache"
    if local.is_dir():
        return local
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "engram" / digest


def memo_dir() -> Path:
    """Where index entries are kept by content (``memo``): machine-wide, not per
    repository, so a fresh clone or worktree of a repository already seen reuses them.

    Under ``$ENGRAM_CACHE_DIR`` when that is set (tests and benchmarks isolate both).
    """
    env = os.environ.get("ENGRAM_MEMO_DIR")
    if env:
        return Path(env).expanduser()
    cache = os.environ.get("ENGRAM_CACHE_DIR")
    if cache:
        return Path(cache).expanduser() / "memo"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "engram" / "memo"


def stat_sig(path: Path) -> list[int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_mtime_ns, st.st_size]


def read_config(path: Path, cache: Path) -> Config:
    """Parse ``config.yaml``; the parsed form is cached as JSON so loads skip YAML."""
    sig = stat_sig(path)
    if sig is None:
        return Config()
    cached = cache / "config.json"
    try:
        data = json.loads(cached.read_text())
        if data.get("sig") == sig:
            return config_from_mapping(data["config"], str(path))
    except (OSError, ValueError, KeyError):
        pass
    from .frontmatter import load_yaml_mapping

    raw = load_yaml_mapping(path.read_text(encoding="utf-8"), str(path))
    config = config_from_mapping(raw, str(path))
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps({"sig": sig, "config": raw}))
    except OSError:
        pass
    return config


def config_from_mapping(raw: dict[str, Any], where: str) -> Config:
    load = raw.get("load") or {}
    if not isinstance(load, dict):
        raise ConfigError(f"{where}: 'load' must be a mapping")
    disclosure = load.get("disclosure", "auto")
    if disclosure not in ("auto", "full"):
        raise ConfigError(f"{where}: load.disclosure must be 'auto' or 'full' (got {disclosure!r})")
    ints = {}
    for key, default in (("expand_top", 3), ("limit", 8)):
        value = load.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ConfigError(f"{where}: load.{key} must be a non-negative integer")
        ints[key] = value
    roles = _string_list(raw.get("roles"), "roles", where)
    ignore = _string_list(raw.get("ignore"), "ignore", where)
    use_global = raw.get("global", True)
    if not isinstance(use_global, bool):
        raise ConfigError(f"{where}: 'global' must be true or false")
    return Config(
        LoadSettings(disclosure, ints["expand_top"], ints["limit"]),
        roles,
        ignore,
        use_global,
        _hook_settings(raw.get("hooks"), where),
    )


def _hook_settings(raw: Any, where: str) -> HookSettings:
    if raw is None:
        return HookSettings()
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: 'hooks' must be a mapping")
    read = raw.get("read", "auto")
    if read not in HOOK_READ_MODES:
        raise ConfigError(f"{where}: hooks.read must be one of {', '.join(HOOK_READ_MODES)}")
    path_rules = raw.get("path_rules", "native")
    if path_rules not in PATH_RULES_MODES:
        raise ConfigError(f"{where}: hooks.path_rules must be one of {', '.join(PATH_RULES_MODES)}")
    return HookSettings(read, path_rules)


def _string_list(value: Any, name: str, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: '{name}' must be a list of strings")
    return tuple(value)


def ignore_matcher(root: Root, extra: tuple[str, ...]) -> Callable[[str], bool]:
    """A predicate on root-relative paths, from ``.engramignore`` then config patterns.

    Gitignore semantics, so a later ``!pattern`` re-includes an earlier match.
    """
    try:
        lines = root.ignore_path.read_text(encoding="utf-8").splitlines()
    except OSError:  # no ignore file
        lines = []
    lines.extend(extra)
    if not any(line.strip() and not line.startswith("#") for line in lines):
        return lambda _path: False
    import pathspec

    spec = pathspec.GitIgnoreSpec.from_lines(lines)
    return spec.match_file


def scan_files(root: Root) -> dict[str, list[int]]:
    """``{relative path: [mtime_ns, size]}`` for every memory file, sorted by path.

    ``os.scandir`` reuses the directory read, which keeps a warm check of
    1,000 files to a few milliseconds.
    """
    found: dict[str, list[int]] = {}
    base = str(root.path)

    def walk(rel: str) -> None:
        try:
            entries = sorted(os.scandir(os.path.join(base, rel)), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            if entry.name.startswith("."):
                continue
            child = f"{rel}/{entry.name}"
            if entry.is_dir():
                walk(child)
            elif entry.name.endswith(".md"):
                st = entry.stat()
                found[child] = [st.st_mtime_ns, st.st_size]

    for sub in SUBDIRS:
        walk(sub)
    return dict(sorted(found.items()))


def memory_files(root: Root) -> list[str]:
    """Root-relative ``*.md`` paths under the known subfolders, sorted."""
    found: list[str] = []
    for sub in SUBDIRS:
        top = root.path / sub
        if not top.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            rel = Path(dirpath).relative_to(root.path).as_posix()
            found.extend(f"{rel}/{name}" for name in filenames if name.endswith(".md"))
    return sorted(found)


def write_atomic(path: Path, text: str) -> None:
    """Write via a temp file and rename, so a concurrent reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
