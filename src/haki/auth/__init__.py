"""API keys and per-key rate limits: the machinery behind the request principal."""

from .material import generate_key, hash_key, key_prefix, looks_like_key
from .ratelimit import RateLimiter
from .service import issue, list_keys, resolve, revoke
from .types import ApiKey, IssuedKey, KeyOwner

__all__ = [
    "ApiKey",
    "IssuedKey",
    "KeyOwner",
    "RateLimiter",
    "generate_key",
    "hash_key",
    "issue",
    "key_prefix",
    "list_keys",
    "looks_like_key",
    "resolve",
    "revoke",
]
