"""Key material: generation, hashing and the display prefix. Pure functions, no I/O."""

from __future__ import annotations

import hashlib
import secrets

KEY_MARK = "hk_"
PREFIX_LEN = 8
# 32 random bytes: 256 bits, 43 url-safe characters.
_RANDOM_BYTES = 32
# Longer bearer tokens are rejected before hashing; real keys are 46 chars.
MAX_TOKEN_LEN = 256


def generate_key() -> str:
    return KEY_MARK + secrets.token_urlsafe(_RANDOM_BYTES)


def hash_key(secret: str) -> str:
    """The stored form. A plain sha256 suffices: the secret is 256 random
    bits, so no dictionary or brute-force attack applies, unlike a password."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def key_prefix(secret: str) -> str:
    return secret[:PREFIX_LEN]


def looks_like_key(token: str) -> bool:
    return token.startswith(KEY_MARK) and len(token) <= MAX_TOKEN_LEN
