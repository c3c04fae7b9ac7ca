"""``engram hook --host H``: one entry point for every event of every host.

Reads the event JSON, decides what the agent should receive, and prints the
host's answer. It never breaks the host: any failure (no workspace, a broken
file, a slow disk) prints the host's no-op answer ``{}``, and the command
exits 0.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

from ..workspace import Roots, cache_dir, locate
from . import events, rules
from .hosts import Host, host
from .state import locked, prune, session_path

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from typing import Any

    from .inject import Injection

# Every hook event is a new process. What composes an injection (the plan, its
# rendering, the token estimate) and what routes (the loader, the index) is
# imported only by the events that inject: compaction, a subagent without a
# task and the file events that match nothing answer without them.

# Seconds before the runtime gives up and answers no-op; hosts wait TIMEOUT_SECONDS.
DEADLINE = 8.0
FILE_EVENT_BODIES = 3
SESSION_START_LIMIT = 5
# What a session start may spend deriving missing memory vectors (about 0.3 ms of CPU
# each: 1,000 memories take 0.3-1 s on a busy machine). Well under DEADLINE, so a very
# large pool never costs the session its answer; the rest waits for the next session.
FILL_SECONDS = 2.0
# Gemini CLI fires PreCompress ("auto") before every model call and only then
# checks its threshold, a fraction of a context window of at least 128k tokens
# (Gemini CLI 0.61). A transcript under this size cannot have reached it, so
# such a PreCompress compressed nothing and the delivered set stands.
GEMINI_MIN_COMPRESS_BYTES = 128_000


def run(
    host_name: str,
    raw: str,
    global_dir: Path | None = None,
    use_global: bool | None = None,
) -> str:
    """Return the exact stdout for one event; never raises."""
    try:
        spec = host(host_name)
        event = events.parse(host_name, json.loads(raw))
        context = handle(spec, event, global_dir, use_global)
        answer = spec.answer(event.name, context)
    except Exception as exc:  # the host must never see a failure
        print(f"engram hook: {type(exc).__name__}: {exc}", file=sys.stderr)
        answer = {}
    return json.dumps(answer) + "\n"


def handle(
    spec: Host,
    event: events.Event,
    global_dir: Path | None = None,
    use_global: bool | None = None,
) -> str | None:
    cwd = Path(event.cwd) if event.cwd else Path.cwd()
    roots = locate(cwd, global_dir, use_global)
    if not roots.workspace.path.is_dir():
        return None
    settings = roots.config.hooks
    if settings.read == "off":
        return None
    sessions = cache_dir(roots.workspace) / "sessions"
    # A subagent's events carry the parent's session id and its own agent_id; it
    # starts from its task alone, so what it was shown is kept apart from the
    # parent's (Codex fires UserPromptSubmit with the subagent's task).
    key = f"{event.session}\x00{event.agent}" if event.agent else event.session
    path = session_path(sessions, spec.name, key)
    fits = _fits(spec)
    mode = settings.read

    if event.kind == "compact":
        if spec.name == "gemini" and event.source == "auto" and not _may_compress(event):
            return None
        with locked(path) as session:
            session.delivered.clear()
            session.routed.clear()
        return None

    if event.kind == "instructions":
        mid = rules.rule_id(event.file_path, roots.workspace.base)
        if mid is not None:
            with locked(path) as session:
                session.deliver([mid])
        return None

    if event.kind == "start":
        prune(sessions)
        query = _session_query(roots, cwd)
        # Once per session: the vectors still missing are derived here, so the prompts
        # that follow find their candidates' vectors in the index.
        plan = _load(roots, query, limit=SESSION_START_LIMIT, fill_seconds=FILL_SECONDS)
        native = _native_rule_ids(spec.name, roots, settings.path_rules)
        with locked(path) as session:
            if event.source != "resume" or not spec.resume_keeps_context:
                # A resumed transcript still holds what was injected before;
                # a new, cleared or compacted one does not.
                session.delivered.clear()
                session.routed.clear()
            why = f"session {event.source or 'start'}, routed on {query!r}"
            injection = _compose(
                plan, event.name, why, mode, session.delivered, plan.expand_top, fits,
                as_cards=native,
            )  # fmt: skip
            session.deliver(list(injection.bodies))
        return injection.text

    if event.kind == "subagent":
        # Route on the subagent's own task when the host sends it; never on the
        # parent's prompt or the agent's type name, which describe another task.
        task = event.prompt
        if not task:
            return None
        plan = _load(roots, task)
        if not plan.batch and not plan.skipped:
            return None
        why = f"subagent {event.agent_type or event.agent}, routed on its task"
        return _compose(plan, event.name, why, mode, (), plan.expand_top, fits).text

    if mode == "startup":
        return None

    if event.kind == "prompt":
        if not event.prompt.strip():
            return None
        plan = _load(roots, event.prompt)
        routed = [i.id for i in (*plan.batch, *plan.omitted_cards)]
        native = _native_rule_ids(spec.name, roots, settings.path_rules)
        with locked(path) as session:
            if mode == "auto" and routed and routed == session.routed:
                return None
            session.routed = routed
            if not routed and not plan.skipped:
                return None
            why = "anchors: " + (", ".join(plan.anchors[:6]) or "(none)")
            injection = _compose(
                plan, event.name, why, mode, session.delivered, plan.expand_top, fits,
                as_cards=native,
            )  # fmt: skip
            session.deliver(list(injection.bodies))
        return injection.text

    if event.kind == "files":
        if spec.name in rules.RULE_DIRS and settings.path_rules == "native":
            return None  # the host loads the generated rule files itself
        paths = events.relative_paths(event.paths, cwd, roots.workspace.base)
        if not paths:
            return None
        plan = _load(roots, "", files=paths, limit=FILE_EVENT_BODIES * 3)
        matched = [i for i in plan.batch if any(r.startswith("applies_to:") for r in i.reasons)]
        with locked(path) as session:
            fresh = [i for i in matched if i.id not in session.delivered]
            if not fresh:
                return None
            why = "applies_to: " + ", ".join(paths[:3])
            injection = _compose(
                plan, event.name, why, mode, session.delivered, FILE_EVENT_BODIES, fits, fresh
            )
            session.deliver(list(injection.bodies))
        return injection.text

    return None


def _native_rule_ids(host_name: str, roots: Roots, path_rules: str) -> frozenset[str]:
    """Memories the host loads itself from generated rule files when a matching file is touched.

    Their bodies arrive through the host; a hook sending them too would put
    the same body in context twice, so hooks name them as cards instead.
    """
    if host_name not in rules.RULE_DIRS or path_rules != "native":
        return frozenset()
    directory = roots.workspace.base / rules.RULE_DIRS[host_name]
    try:
        names = [p.name for p in directory.iterdir()]
    except OSError:
        return frozenset()
    suffix = rules.SUFFIX[host_name]
    return frozenset(n[: -len(suffix)] for n in names if n.endswith(suffix))


def _may_compress(event: events.Event) -> bool:
    try:
        return Path(event.transcript).stat().st_size >= GEMINI_MIN_COMPRESS_BYTES
    except (OSError, ValueError):
        return True  # no transcript to judge by: assume the host compressed


def _load(
    roots: Roots,
    query: str,
    files: tuple[str, ...] = (),
    limit: int | None = None,
    fill_seconds: float | None = None,
) -> Any:
    from ..loader import load
    from ..plan import LoadRequest

    request = LoadRequest(query=query, files=files, limit=limit, record_usage=False)
    return load(request, roots, fill_seconds=fill_seconds)


def _session_query(roots: Roots, cwd: Path) -> str:
    """Words naming where the session runs: the repository and the working folder."""
    base = roots.workspace.base
    parts = [base.name]
    try:
        inner = cwd.resolve().relative_to(base.resolve()).parts
    except ValueError:  # the host's cwd is outside the workspace
        inner = ()
    parts += list(inner)
    return " ".join(p.replace("-", " ").replace("_", " ") for p in parts if p)


def _compose(*args: Any, **kwargs: Any) -> Injection:
    from .inject import compose

    return compose(*args, **kwargs)


def _fits(spec: Host) -> Callable[[str], bool]:
    cap_tokens, cap_chars = spec.cap_tokens, spec.cap_chars or 9500

    def fits(text: str) -> bool:
        if cap_tokens is None:
            return len(text) <= cap_chars
        from ..text import estimate_tokens

        return estimate_tokens(text) <= cap_tokens

    return fits
