"""The context assembler: hybrid retrieval under a token budget, with a trace."""

from .assembler import assemble
from .config import DEFAULT, RECIPES, RetrievalConfig, recipe
from .forgetting import expire_traces, forget_fact, forget_subject
from .types import ContextRequest, ContextResult, Decision, Packet, Rendered, Scored

__all__ = [
    "DEFAULT",
    "RECIPES",
    "ContextRequest",
    "ContextResult",
    "Decision",
    "Packet",
    "Rendered",
    "RetrievalConfig",
    "Scored",
    "assemble",
    "expire_traces",
    "forget_fact",
    "forget_subject",
    "recipe",
]
