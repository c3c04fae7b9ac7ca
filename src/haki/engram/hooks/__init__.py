"""Agent-host hooks: install Engram into Claude Code, Codex, Gemini CLI and Cursor,
and answer their events (``engram hook --host H``) with the right memories."""

from .hosts import HOST_SPECS, HOSTS, Host, host
from .runtime import run

__all__ = ["HOSTS", "HOST_SPECS", "Host", "host", "run"]
