"""The OpenAI-compatible gateway: memory injected into chat completions, turns captured."""

from .memory import ClientMemory
from .proxy import Forwarded, Memory, Recalled, chat_completions, models
from .upstream import Upstream

__all__ = [
    "ClientMemory",
    "Forwarded",
    "Memory",
    "Recalled",
    "Upstream",
    "chat_completions",
    "models",
]
