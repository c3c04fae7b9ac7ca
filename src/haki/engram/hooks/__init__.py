"""Agent-host hooks: install Engram into Claude Code, Codex, Gemini CLI and Cursor,
and answer their events (``engram hook --host H``) with the right memories.

Modules are imported where needed (``hosts``, ``install``, ``runtime``, ``rules``,
``commands``), so ``engram load`` never pays for them.
"""
