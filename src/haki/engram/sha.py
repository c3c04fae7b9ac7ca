"""SHA-256 for the short-lived ``engram`` processes.

CPython's own SHA-256 (``_sha2`` from 3.12, ``_sha256`` before) rather than ``hashlib``'s
OpenSSL backend: importing ``hashlib`` loads OpenSSL, about 2-3 ms of CPU on every
``engram load`` and hook, while a cold build of the shared corpus hashes 172 kB (0.6 ms
built in, 0.15 ms with OpenSSL). The digests are the same; ``hashlib`` remains the
fallback for an interpreter built without the module.
"""

from __future__ import annotations

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def _constructor() -> Callable[[bytes], Any]:
    for name in ("_sha2", "_sha256"):
        try:
            found: Callable[[bytes], Any] = __import__(name).sha256
        except (ImportError, AttributeError):
            continue
        return found
    import hashlib

    return hashlib.sha256


sha256 = _constructor()


def sha256_hex(data: bytes) -> str:
    text: str = sha256(data).hexdigest()
    return text
